package textexport

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// renderCalls renders calls with writeCallRows, and with the tabwriter
// table it stands in for.
func renderCalls(t *testing.T, calls []store.Call) (fast string, ok bool, table string) {
	t.Helper()
	var a, b bytes.Buffer
	wa, wb := bufio.NewWriter(&a), bufio.NewWriter(&b)
	cs := store.CallsOf(calls)
	ok = writeCallRows(wa, &cs)
	writeCallTable(wb, &cs)
	wa.Flush()
	wb.Flush()
	return a.String(), ok, b.String()
}

func sampleCalls() []store.Call {
	return []store.Call{
		{Index: 0, Dir: capture.C2S, ID: wire.IntID(1), Method: "tools/call", Target: "echo", Era: store.EraModern,
			RequestSeq: 1, ResponseSeq: 2, DurationMS: 0.042, Status: store.StatusOK, Operation: -1, Parent: -1},
		{Index: 1, Dir: capture.S2C, ID: wire.StringID("é-long-id"), Method: "elicitation/create", Status: store.StatusPending,
			RequestSeq: 3, Operation: -1, Parent: 0, Attribution: store.AttrSingleInFlight},
		{Index: 12345, Dir: capture.C2S, ID: wire.IntID(99), Method: "tools/call", Target: "日本語ツール", Status: store.StatusError,
			RequestSeq: 10, ResponseSeq: 11, DurationMS: 1234.5, Operation: 2, Round: 3, Parent: -1,
			Error: &store.CallError{Code: -32602, Message: "bad \"args\"  "}, CancelSeq: 9, Late: true, ResultType: "weird "},
		{Index: 3, Dir: capture.C2S, ID: wire.IntID(4), Method: "m\xffx", Status: store.StatusOK, Operation: -1, Parent: -1},
	}
}

func TestCallRowsMatchTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		calls []store.Call
		fast  bool
	}{
		{"sample", sampleCalls()[:3], true},
		// Cells are escaped (termtext), so no cell holds a character
		// tabwriter interprets and every table takes the fast path.
		{"invalid utf-8 cell", sampleCalls(), true},
		{"one call", sampleCalls()[:1], true},
		{"tab in a method", []store.Call{{Method: "a\tb", Operation: -1, Parent: -1}}, true},
		{"newline in a target", []store.Call{{Method: "a", Target: "x\ny", Operation: -1, Parent: -1}}, true},
		{"trailing spaces in notes", []store.Call{{Method: "a", Operation: -1, Parent: -1, ResultType: "x  "}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fast, ok, table := renderCalls(t, tt.calls)
			if ok != tt.fast {
				t.Fatalf("writeCallRows took the rows: %v, want %v", ok, tt.fast)
			}
			if ok {
				if diff := cmp.Diff(table, fast); diff != "" {
					t.Errorf("aligned rows differ from tabwriter's (-table +rows):\n%s", diff)
				}
			} else if fast != "" {
				t.Errorf("writeCallRows refused the rows but wrote %q", fast)
			}
		})
	}
}

// FuzzCallRows checks the hand alignment against tabwriter on arbitrary
// cell texts.
func FuzzCallRows(f *testing.F) {
	f.Add("tools/call", "echo", "é", "x  ", int64(5), uint64(3))
	f.Add("a\tb", "", "\x00", "", int64(-1), uint64(0))
	f.Fuzz(func(t *testing.T, method, target, msg, resultType string, index int64, seq uint64) {
		calls := sampleCalls()[:3]
		calls = append(calls, store.Call{Index: int(index), Dir: capture.Dir(target), ID: wire.NewID(msg),
			Method: method, Target: target, Era: msg, Status: resultType, RequestSeq: seq, ResponseSeq: seq,
			Operation: -1, Parent: int(index % 3), Attribution: method, Error: &store.CallError{Message: msg},
			ResultType: resultType})
		fast, ok, table := renderCalls(t, calls)
		if ok && fast != table {
			t.Fatalf("aligned rows differ from tabwriter's:\n%s", cmp.Diff(table, fast))
		}
	})
}
