package textexport

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

func ledgerRows() []store.LedgerRow {
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	return []store.LedgerRow{{
		Root: store.LedgerRoot{Call: 0, ID: wire.IntID(1), Method: "tools/call", Target: "create_account"}, Round: 1, Key: "profile",
		Era: store.LedgerMRTR, Mode: "form", Message: "Pick a name",
		Fields: []store.LedgerField{{Name: "username", Type: "string", Required: true}, {Name: "tab\there", Type: "unknown"}},
		Action: "accept", Status: store.LedgerAnswered, AskedAt: t0, ElapsedMS: 920, AskedSeq: 2, AnsweredSeq: 3,
		Operation: 0, WaitMS: 920, ToolMS: 50,
	}, {
		Root: store.LedgerRoot{Call: -1}, Era: store.LedgerLegacy, Mode: "url", Message: "Pay\nnow", URL: "http://10.0.0.1/", Host: "10.0.0.1",
		ElicitationID: "el-1", Status: store.LedgerRequired, AskedAt: t0, CompletedAt: t0.Add(3100 * time.Millisecond), AskedSeq: 5,
		Observations: []string{store.ObsHostIPLiteral, store.ObsSchemeNotHTTPS}, Operation: -1,
	}, {
		Root: store.LedgerRoot{Call: 3, ID: wire.StringID("x"), Method: "tools/list"}, Round: 1, Key: "q", Era: store.LedgerMRTR,
		Mode: "form", Fields: []store.LedgerField{}, Status: store.LedgerPending, AskedSeq: 9, Operation: -1,
	}, {
		Root: store.LedgerRoot{Call: 4, ID: wire.IntID(4), Method: "tools/call", Target: "t"}, Era: store.LedgerLegacy, Mode: "form",
		Fields: []store.LedgerField{}, Status: store.LedgerAnswered, AskedSeq: 10, AnsweredSeq: 11, ElapsedMS: 0.5, Operation: -1,
	}}
}

func TestWriteLedger(t *testing.T) {
	t.Parallel()
	rows := ledgerRows()
	var lines []LedgerLine
	for i := range rows {
		lines = append(lines, LedgerLine{Row: &rows[i]})
	}
	var buf bytes.Buffer
	if err := WriteLedger(&buf, lines, Layout{}); err != nil {
		t.Fatal(err)
	}
	want := `ROOT                              KEY      MODE  MESSAGE      FIELDS/HOST                            ACTION       ELAPSED  WAIT/TOOL       NOTES
tools/call create_account (id 1)  profile  form  Pick a name  username:string*, tab\x09here:unknown  accept       920.0ms  920.0ms/50.0ms
(unattributed)                    -        url   Pay\x0anow   10.0.0.1                               (required)   -        -               host-ip-literal; scheme-not-https; elicitationId "el-1"; completed after 3.10s
tools/list (id "x")               q        form  -            (no fields)                            (pending)    -        -
tools/call t (id 4)               -        form  -            (no fields)                            (no action)  0.50ms   -
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("WriteLedger (-want +got):\n%s", diff)
	}

	lines[0].Session, lines[1].Session = "s-1", "s-2"
	buf.Reset()
	if err := WriteLedger(&buf, lines[:2], Layout{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.SplitN(buf.String(), "\n", 3); !strings.HasPrefix(got[0], "SESSION  ROOT") || !strings.HasPrefix(got[1], "s-1      tools/call") {
		t.Errorf("WriteLedger with sessions:\n%s", buf.String())
	}
}

func TestLedgerSection(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	writeLedger(w, &store.Snapshot{}, Layout{})
	w.Flush()
	if buf.Len() != 0 {
		t.Errorf("a session without elicitation wrote %q", buf.String())
	}
	writeLedger(w, &store.Snapshot{Ledger: store.ListOf(ledgerRows()[:2])}, Layout{})
	w.Flush()
	want := `
elicitations (2)
  ASKED  ROOT                              ROUND  KEY      MODE  ASKS                                   ANSWER      ELAPSED  WAIT/TOOL       MESSAGE        NOTES
  #2     tools/call create_account (id 1)  1      profile  form  username:string*, tab\x09here:unknown  accept      920.0ms  920.0ms/50.0ms  "Pick a name"
  #5     (unattributed)                    -      -        url   10.0.0.1                               (required)  -        -               "Pay\nnow"     host-ip-literal; scheme-not-https; elicitationId "el-1"; completed after 3.10s
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("section (-want +got):\n%s", diff)
	}
}

// TestLedgerTaskNote: a task's row says what became of the task; a row of
// no task, or whose operation the caller did not read, says nothing.
func TestLedgerTaskNote(t *testing.T) {
	t.Parallel()
	done := &store.Operation{DurationMS: 4055, Task: store.TaskInfo{ID: "t1", Status: "completed", Polls: 4, TerminalSeq: 14}}
	working := &store.Operation{DurationMS: 1200, Task: store.TaskInfo{ID: "t2", Status: "input_required", Polls: 1}}
	for _, tc := range []struct {
		op   *store.Operation
		want string
	}{
		{done, "task completed, 4 polls, 4.05s"},
		{working, "task input_required, 1 poll, 1.20s so far"},
		{&store.Operation{DurationMS: 9}, ""},
		{nil, ""},
	} {
		if got := LedgerTaskNote(tc.op); got != tc.want {
			t.Errorf("LedgerTaskNote(%+v) = %q, want %q", tc.op, got, tc.want)
		}
	}
}
