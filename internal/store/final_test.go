package store

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// ingestAll feeds a whole capture to a new Store.
func ingestAll(t *testing.T, data []byte) *Store {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil)
	s.Ingest(r.Header())
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		s.Ingest(&rec)
	}
	s.SetDamage(r.Damage())
	return s
}

// TestFinalMatchesSnapshot checks that the hand-over snapshot equals the
// copied one, and that a snapshot taken earlier is not changed by Final.
func TestFinalMatchesSnapshot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data []byte
	}{
		{"elicit fixture", captureOf(t, transcript(t, "testdata/elicit-seed.transcript.jsonl"))},
		{"legacy fixture", captureOf(t, transcript(t, "testdata/legacy-2025-11-25.transcript.jsonl"))},
		{"empty", captureOf(t, nil)},
		{"mrtr and pending", captureOf(t, []step{
			c2s(0, tool("1", "t", `{"a":1}`, "")),
			s2c(5, inputRequired("1", `{"k":`+elicit("k")+`}`, "s1")),
			c2s(5, tool("2", "t", `{"a":1}`, `"inputResponses":{"k":{}},"requestState":"s1",`)),
			c2s(1, tool("3", "t", ``, "")),
			endRec(),
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := ingestAll(t, tt.data)
			want := s.Snapshot()
			before := s.Snapshot()
			got := s.Final()
			if diff := cmp.Diff(want, got, cmpopts.EquateComparable(wire.ID{}), callsSlice()); diff != "" {
				t.Errorf("Final differs from Snapshot (-snapshot +final):\n%s", diff)
			}
			if diff := cmp.Diff(want, before, cmpopts.EquateComparable(wire.ID{}), callsSlice()); diff != "" {
				t.Errorf("Final changed an earlier snapshot (-want +got):\n%s", diff)
			}
		})
	}
}

// callsSlice compares Calls, Findings, Operations and Ledger by their
// elements.
func callsSlice() cmp.Option {
	return cmp.Options{
		cmp.Transformer("Calls", func(c Calls) []Call { return c.Slice() }),
		cmp.Transformer("Findings", func(f Findings) []finding.Finding { return f.Slice() }),
		cmp.Transformer("Operations", func(l Operations) []Operation { return l.Slice() }),
		cmp.Transformer("Ledger", func(l Ledger) []LedgerRow { return l.Slice() }),
		cmpopts.IgnoreUnexported(Snapshot{}), // the frame index: TestSnapshotFrame
	}
}
