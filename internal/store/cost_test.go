//go:build !race

package store

import (
	"runtime"
	"testing"
)

// This file measures allocations, which the race detector inflates.

// TestSnapshotCostFollowsChange checks that a snapshot taken after one
// more record of a large session allocates what that record changed, not
// a copy of the session: it copied every call, operation and ledger row
// (megabytes here), and walked every call.
func TestSnapshotCostFollowsChange(t *testing.T) {
	const frames = 40_000
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
	if snap.Calls.Len() < 15_000 || snap.Operations.Len() < 1_500 || snap.Ledger.Len() < 1_500 {
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
