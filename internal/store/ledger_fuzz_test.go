package store

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// FuzzLedger drives the correlation alphabet of FuzzCorrelate (interim
// results with elicitations, retries, legacy requests and answers,
// cancellations, ids taken over) and checks the ledger's invariants, on a
// live snapshot and on the final one.
func FuzzLedger(f *testing.F) {
	f.Add([]byte{0, 0, 2, 16, 3, 16, 1, 0})
	f.Add([]byte{8, 0, 0, 1, 5, 2, 6, 2, 5, 3, 7, 3, 1, 1})
	f.Fuzz(func(t *testing.T, prog []byte) {
		var steps []step
		for i := 0; i+1 < len(prog); i += 2 {
			steps = append(steps, opFrame(prog[i], prog[i+1]))
		}
		data := captureOf(t, steps)
		final := loadBytes(t, data, nil)
		checkLedgerConsistent(t, final)
		r, err := capture.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		s := New(nil)
		s.Ingest(r.Header())
		for {
			var rec capture.Record
			if r.Next(&rec) != nil {
				break
			}
			s.Ingest(&rec)
		}
		live := s.Snapshot()
		checkLedgerConsistent(t, live)
		if diff := cmp.Diff(ledgerLines(final.Ledger.Slice()), ledgerLines(live.Ledger.Slice())); diff != "" {
			t.Fatalf("Snapshot and Load disagree (-load +snapshot):\n%s", diff)
		}
	})
}
