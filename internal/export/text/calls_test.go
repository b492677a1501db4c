package textexport

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// renderCalls renders calls with the calls table, whole, and with the
// tabwriter table it replaced (padding 2, trailing spaces trimmed), whose
// layout the whole table keeps.
func renderCalls(t *testing.T, calls []store.Call) (got, old string) {
	t.Helper()
	var a, b bytes.Buffer
	wa := bufio.NewWriter(&a)
	cs := store.CallsOf(calls)
	Layout{}.render(wa, callTable(), callRows{&cs})
	wa.Flush()
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tDIR\tID\tMETHOD\tTARGET\tERA\tSTATUS\tDURATION\tSEQ\tNOTES")
	for i := range cs.Len() {
		c := cs.At(i)
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Index, termtext.Escape(string(c.Dir)), idText(c.ID),
			termtext.Escape(c.Method), termtext.Escape(dash(c.Target)), termtext.Escape(dash(c.Era)), termtext.Escape(c.Status),
			callDuration(&c), seqText(&c), callNotes(&c))
	}
	tw.Flush()
	var trimmed strings.Builder
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			trimmed.WriteString(strings.TrimRight(line, " \n") + "\n")
		}
	}
	return a.String(), trimmed.String()
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

func TestCallTableKeepsTheOldLayout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		calls []store.Call
	}{
		{"sample", sampleCalls()[:2]},
		{"one call", sampleCalls()[:1]},
		{"tab in a method", []store.Call{{Method: "a\tb", Operation: -1, Parent: -1}}},
		{"newline in a target", []store.Call{{Method: "a", Target: "x\ny", Operation: -1, Parent: -1}}},
		{"trailing spaces in notes", []store.Call{{Method: "a", Operation: -1, Parent: -1, ResultType: "x  "}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, old := renderCalls(t, tt.calls)
			if diff := cmp.Diff(old, got); diff != "" {
				t.Errorf("the whole table differs from tabwriter's (-tabwriter +table):\n%s", diff)
			}
		})
	}
}

// TestCallTableWideRunes: a wide rune takes two columns, where tabwriter
// counted one.
func TestCallTableWideRunes(t *testing.T) {
	t.Parallel()
	got, _ := renderCalls(t, sampleCalls()[2:3])
	want := "" +
		"  #  DIR  ID  METHOD      TARGET        ERA  STATUS  DURATION  SEQ      NOTES\n" +
		`  0  c2s  99  tools/call  日本語ツール  -    error   1.23s     #10→#11  op 2 round 3; error -32602 "bad \"args\"  "; cancelled at #9; late result; resultType weird` + "\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzCallTable checks the whole calls table against tabwriter's layout on
// arbitrary cell texts whose runes are each one column wide.
func FuzzCallTable(f *testing.F) {
	f.Add("tools/call", "echo", "é", "x  ", int64(5), uint64(3))
	f.Add("a\tb", "", "\x00", "", int64(-1), uint64(0))
	f.Fuzz(func(t *testing.T, method, target, msg, resultType string, index int64, seq uint64) {
		calls := sampleCalls()[:2]
		calls = append(calls, store.Call{Index: int(index), Dir: capture.Dir(target), ID: wire.NewID(msg),
			Method: method, Target: target, Era: msg, Status: resultType, RequestSeq: seq, ResponseSeq: seq,
			Operation: -1, Parent: int(index % 3), Attribution: method, Error: &store.CallError{Message: msg},
			ResultType: resultType})
		got, old := renderCalls(t, calls)
		// Below U+0300 (where combining marks start) every printable
		// rune is one column wide, as tabwriter counts it.
		if strings.ContainsFunc(old, func(r rune) bool { return r >= 0x300 && r != '→' }) {
			t.Skip("a rune may not be one column wide: tabwriter's layout is not the reference")
		}
		if got != old {
			t.Fatalf("the whole table differs from tabwriter's:\n%s", cmp.Diff(old, got))
		}
	})
}
