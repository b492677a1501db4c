package store

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestSummaryCountsOperations checks that an MRTR operation is one call of
// its method and tool, of its whole duration and final status, with its
// rounds counted beside it: the elicit-seed fixture has three operations
// of two rounds each.
func TestSummaryCountsOperations(t *testing.T) {
	t.Parallel()
	snap := load(t, transcript(t, "testdata/elicit-seed.transcript.jsonl"))
	checkConsistent(t, snap)
	want := Summary{
		Methods: []Stat{{Name: "tools/call", Count: 3, Rounds: 6, Errors: 1, P50MS: 970, P95MS: 2890, P99MS: 2890}},
		Tools: []Stat{
			{Name: "create_account", Count: 1, Rounds: 2, P50MS: 970, P95MS: 970, P99MS: 970},
			{Name: "login_legacy", Count: 1, Rounds: 2, Errors: 1, P50MS: 310, P95MS: 310, P99MS: 310},
			{Name: "sync_calendar", Count: 1, Rounds: 2, P50MS: 2890, P95MS: 2890, P99MS: 2890},
		},
	}
	approx := cmpopts.EquateApprox(0, 1e-9)
	if diff := cmp.Diff(want, snap.Summary, approx); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	// Each tool is called once: its duration is its operation's.
	tools := map[string]Stat{}
	for _, st := range snap.Summary.Tools {
		tools[st.Name] = st
	}
	for _, op := range snap.Operations.Slice() {
		if got := tools[op.Target].P50MS; !cmp.Equal(got, op.DurationMS, approx) {
			t.Errorf("%s: p50 %v, want the operation's duration %v", op.Target, got, op.DurationMS)
		}
	}
}

// TestSummaryMidOperation follows a session of plain calls, two operations
// and a legacy server request nested in a call, through a snapshot after
// every record: an operation is counted once from its first interim
// result on, a retry adds a round and never a call, and the summary kept
// up to date always equals the one computed afresh.
func TestSummaryMidOperation(t *testing.T) {
	t.Parallel()
	toolErr := func(id string) string {
		return res(id, `{"resultType":"complete","content":[],"isError":true}`)
	}
	retry := func(id, state string) string {
		return tool(id, "deploy", `{}`, `,"inputResponses":{"a":{"action":"accept"}},"requestState":"`+state+`"`)
	}
	steps := []step{
		c2s(0, tool("1", "t", `{}`, "")),
		s2c(5, done("1")),
		c2s(0, tool("2", "deploy", `{}`, "")),
		s2c(10, inputRequired("2", elicit("a"), "s1")), // step 4: the first interim result
		c2s(100, retry("3", "s1")),                     // step 5: its retry
		s2c(20, done("3")),
		c2s(0, req("4", "tools/call", `{"name":"book"}`)),
		s2c(3, req(`"e1"`, "elicitation/create", `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`)),
		c2s(7, res(`"e1"`, `{"action":"accept","content":{}}`)),
		s2c(5, res("4", `{"content":[]}`)),
		c2s(0, tool("5", "deploy", `{}`, "")),
		s2c(10, inputRequired("5", elicit("a"), "s2")),
		c2s(50, retry("6", "s2")),
		s2c(10, inputRequired("6", elicit("a"), "s3")),
		c2s(50, retry("7", "s3")),
		s2c(30, toolErr("7")),
		c2s(0, req("8", "tools/list", "")),
		s2c(1, res("8", `{"tools":[]}`)),
	}
	snaps, final := snapshotEach(t, captureOf(t, steps))
	for i, snap := range snaps {
		checkDerived(t, snap)
		if t.Failed() {
			t.Fatalf("after step %d", i+1)
		}
	}
	tests := []struct {
		name string
		snap *Snapshot
		want Summary
	}{{
		name: "first interim result",
		snap: snaps[3],
		want: Summary{
			Methods: []Stat{{Name: "tools/call", Count: 2, Rounds: 2, P50MS: 5, P95MS: 10, P99MS: 10}},
			Tools: []Stat{
				{Name: "deploy", Count: 1, Rounds: 1, P50MS: 10, P95MS: 10, P99MS: 10},
				{Name: "t", Count: 1, Rounds: 1, P50MS: 5, P95MS: 5, P99MS: 5},
			},
		},
	}, {
		name: "retry pending",
		snap: snaps[4],
		want: Summary{
			Methods: []Stat{{Name: "tools/call", Count: 2, Rounds: 3, P50MS: 5, P95MS: 5, P99MS: 5}},
			Tools: []Stat{
				{Name: "deploy", Count: 1, Rounds: 2},
				{Name: "t", Count: 1, Rounds: 1, P50MS: 5, P95MS: 5, P99MS: 5},
			},
		},
	}, {
		name: "final",
		snap: final,
		want: Summary{
			Methods: []Stat{
				{Name: "tools/call", Count: 4, Rounds: 7, Errors: 1, P50MS: 15, P95MS: 150, P99MS: 150},
				{Name: "tools/list", Count: 1, Rounds: 1, P50MS: 1, P95MS: 1, P99MS: 1},
			},
			Tools: []Stat{
				{Name: "book", Count: 1, Rounds: 1, P50MS: 15, P95MS: 15, P99MS: 15},
				{Name: "deploy", Count: 2, Rounds: 5, Errors: 1, P50MS: 130, P95MS: 150, P99MS: 150},
				{Name: "t", Count: 1, Rounds: 1, P50MS: 5, P95MS: 5, P99MS: 5},
			},
			// The server's question is its request, not the client's call.
			Server: []Stat{{Name: "elicitation/create", Count: 1, Rounds: 1, P50MS: 7, P95MS: 7, P99MS: 7}},
		},
	}}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.snap.Summary, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: summary (-want +got):\n%s", tt.name, diff)
		}
	}
	if diff := cmp.Diff(snaps[len(snaps)-1].Summary, final.Summary); diff != "" {
		t.Errorf("Final's summary differs from the last Snapshot's (-snapshot +final):\n%s", diff)
	}
	if c := final.Calls.At(4); c.Method != "elicitation/create" || c.Parent != 3 {
		t.Errorf("call 4 is %s with parent %d, want the legacy elicitation/create nested in call 3", c.Method, c.Parent)
	}
}

// snapshotEach ingests a capture, taking a Snapshot after each record
// past the header, then the Final one.
func snapshotEach(t *testing.T, data []byte) ([]*Snapshot, *Snapshot) {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil)
	s.Ingest(r.Header())
	var snaps []*Snapshot
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		s.Ingest(&rec)
		snaps = append(snaps, s.Snapshot())
	}
	s.SetDamage(r.Damage())
	return snaps, s.Final()
}
