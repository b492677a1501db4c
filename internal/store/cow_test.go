package store

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestSnapshotsStayPut takes snapshots of a growing session while another
// goroutine reads the earlier ones: each must equal, then and after the
// store went on ingesting (and handed its state over with Final), the
// snapshot of a store that ingested only the records before it. Under
// -race it also proves that the store never writes what a snapshot shares.
func TestSnapshotsStayPut(t *testing.T) {
	t.Parallel()
	const frames, every = 6_000, 250
	_, h, recs := sessionFrames(t, frames)
	type pair struct{ got, want *Snapshot }
	pairs := make(chan pair)
	problems := make(chan []string)
	go func() {
		var kept []pair
		var bad []string
		check := func(i int) {
			if diff := snapshotDiff(kept[i].want, kept[i].got); diff != "" {
				bad = append(bad, fmt.Sprintf("snapshot %d (-want +got):\n%s", i, diff))
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
	s := New(nil)
	s.Ingest(h)
	for i := range recs {
		s.Ingest(&recs[i])
		if (i+1)%every == 0 {
			pairs <- pair{s.Snapshot(), prefixSnapshot(h, recs[:i+1])}
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

func snapshotDiff(want, got *Snapshot) string {
	return cmp.Diff(want, got, cmpopts.EquateComparable(wire.ID{}), callsSlice())
}

// TestSnapshotCostFollowsChange checks that a snapshot taken after one
// more record of a large session allocates what that record changed, not
// a copy of the session: it copied every call, operation and ledger row
// (megabytes here), and walked every call.
func TestSnapshotCostFollowsChange(t *testing.T) {
	const frames = 60_000
	_, h, recs := sessionFrames(t, frames)
	s := New(nil)
	s.Ingest(h)
	for i := range recs[:frames-1] {
		s.Ingest(&recs[i])
	}
	s.Snapshot()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s.Ingest(&recs[frames-1]) // the copies of what the snapshot shares happen here
	snap := s.Snapshot()
	runtime.ReadMemStats(&after)
	if snap.Calls.Len() < 20_000 || snap.Operations.Len() < 2_000 || snap.Ledger.Len() < 2_000 {
		t.Fatalf("%d calls, %d operations, %d ledger rows: the session is too small to tell",
			snap.Calls.Len(), snap.Operations.Len(), snap.Ledger.Len())
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(512<<10); got > limit {
		t.Errorf("ingesting one record and taking a snapshot allocated %d bytes, want ≤ %d", got, limit)
	}
	if testing.Verbose() {
		t.Logf("ingesting one record and taking a snapshot allocated %d bytes", after.TotalAlloc-before.TotalAlloc)
	}
}
