package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestSnapshotsStayPut takes snapshots of a growing session while another
// goroutine reads the earlier ones: each must equal, then and after the
// store went on ingesting (and handed its state over with Final), the
// snapshot of a store that ingested only the records before it, and hand
// out its last frame (kept in memory, Options.KeepFrames). Under -race it
// also proves that the store never writes what a snapshot shares.
func TestSnapshotsStayPut(t *testing.T) {
	t.Parallel()
	const frames, every = 3_000, 200
	_, h, recs := sessionFrames(t, frames)
	type pair struct {
		got, want *Snapshot
		last      capture.Record // the last record the snapshot holds
	}
	pairs := make(chan pair)
	problems := make(chan []string)
	go func() {
		var kept []pair
		var bad []string
		check := func(i int) {
			p := kept[i]
			if diff := snapshotDiff(p.want, p.got); diff != "" {
				bad = append(bad, fmt.Sprintf("snapshot %d (-want +got):\n%s", i, diff))
			}
			f, err := p.got.Frame(p.last.Seq)
			if diff := cmp.Diff(p.last, f, cmpopts.IgnoreFields(capture.Record{}, "Line", "Offset")); err != nil || diff != "" {
				bad = append(bad, fmt.Sprintf("snapshot %d: Frame(%d): %v (-want +got):\n%s", i, p.last.Seq, err, diff))
			}
		}
		for p := range pairs {
			kept = append(kept, p)
			for i := max(0, len(kept)-3); i < len(kept); i++ {
				check(i) // while the store ingests the next records
			}
		}
		for i := range kept {
			check(i)
		}
		problems <- bad
	}()
	s := New(&Options{KeepFrames: true})
	s.Ingest(h)
	for i := range recs {
		s.Ingest(&recs[i])
		if (i+1)%every == 0 {
			pairs <- pair{s.Snapshot(), prefixSnapshot(h, recs[:i+1]), recs[i]}
		}
	}
	if final := s.Final(); final.Counts.Frames != frames || final.Findings.Len() == 0 || final.Ledger.Len() == 0 {
		t.Errorf("the session has %d frames, %d findings, %d ledger rows; want %d and some of each",
			final.Counts.Frames, final.Findings.Len(), final.Ledger.Len(), frames)
	}
	close(pairs)
	for _, p := range <-problems {
		t.Error(p)
	}
}

// prefixSnapshot is the snapshot of a store that ingested h and recs only.
func prefixSnapshot(h *capture.Record, recs []capture.Record) *Snapshot {
	s := New(nil)
	s.Ingest(h)
	for i := range recs {
		s.Ingest(&recs[i])
	}
	return s.Final()
}

// snapshotDiff compares what two snapshots hold (the frame index aside),
// cheaply when they are equal.
func snapshotDiff(want, got *Snapshot) string {
	parts := func(s *Snapshot) []any {
		return []any{s.Session, s.Calls.Slice(), s.Operations.Slice(), s.Findings.Slice(), s.Ledger.Slice(), s.Summary, s.Counts}
	}
	if reflect.DeepEqual(parts(want), parts(got)) {
		return ""
	}
	return cmp.Diff(want, got, cmpopts.EquateComparable(wire.ID{}), callsSlice())
}
