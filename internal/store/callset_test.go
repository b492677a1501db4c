package store

import (
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestCallsBlocks checks Calls across block boundaries: At and Slice see
// the calls in order, and a clone shares nothing with its original.
func TestCallsBlocks(t *testing.T) {
	t.Parallel()
	want := make([]Call, 2*blockSize+3)
	for i := range want {
		want[i] = Call{Index: i, Method: "m", Operation: -1, Parent: -1}
	}
	cs := CallsOf(want)
	if cs.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", cs.Len(), len(want))
	}
	for _, i := range []int{0, blockSize - 1, blockSize, 2 * blockSize, len(want) - 1} {
		if got := cs.At(i).Index; got != i {
			t.Errorf("At(%d).Index = %d", i, got)
		}
	}
	if diff := cmp.Diff(want, cs.Slice(), cmpopts.EquateComparable(wire.ID{})); diff != "" {
		t.Errorf("Slice (-want +got):\n%s", diff)
	}
	cl := cs.clone()
	cl.At(blockSize).Method = "changed"
	if cs.At(blockSize).Method != "m" {
		t.Error("a clone shares its blocks with the original")
	}
	var zero Calls
	if zero.Len() != 0 || len(zero.Slice()) != 0 {
		t.Error("zero Calls is not empty")
	}
}

// TestFinalDoesNotCopyCalls checks that Final hands the store's calls over
// and makes no finding per unanswered call: building the snapshot of many
// calls never answered allocates next to nothing (it copied them all into
// one slice, briefly holding every call twice, and held a finding each).
func TestFinalDoesNotCopyCalls(t *testing.T) {
	const n = 20_000
	steps := make([]step, n, n+1)
	for i := range steps {
		steps[i] = c2s(0, tool(wire.IntID(int64(i+1)).Raw(), "t", "{}", ""))
	}
	s := ingestAll(t, captureOf(t, append(steps, endRec())))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	snap := s.Final()
	runtime.ReadMemStats(&after)
	if snap.Calls.Len() != n || snap.Findings.Len() != n {
		t.Fatalf("%d calls, %d findings; want %d of each", snap.Calls.Len(), snap.Findings.Len(), n)
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(n*8); got > limit {
		t.Errorf("Final of %d pending calls allocated %d bytes, want ≤ %d", n, got, limit)
	}
}
