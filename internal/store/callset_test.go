package store

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
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
	cl.blocks[1][0].method = 0
	if cs.At(blockSize).Method != "m" || cl.At(blockSize).Method != "" {
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

// TestPackRoundTrip checks that every field of a call survives being
// packed and unpacked, and that a call changed through the pointer the
// table hands out is packed again at the next flush.
func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	full := Call{
		Index: 0, Dir: "s2c", Conn: "c1", ID: wire.StringID("x"), Method: "tools/call", Target: "t", Era: EraModern,
		ProtocolVersion: "2026-07-28", RequestSeq: 3, ResponseSeq: 9, Start: t0, End: t0.Add(time.Second), DurationMS: 1000,
		Status: StatusError, ResultType: "complete", Error: &CallError{Code: -1, Message: "m"}, CancelSeq: 5, Late: true,
		Operation: 2, Round: 3, Parent: 4, Attribution: AttrExact,
	}
	cs := CallsOf([]Call{{}, full})
	if diff := cmp.Diff([]Call{{}, func() Call { c := full; c.Index = 1; return c }()}, cs.Slice(), cmpopts.EquateComparable(wire.ID{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	var tab callTable
	if c := tab.add(Call{Method: "a", Status: StatusPending, Operation: -1, Parent: -1}); c.Index != 0 {
		t.Errorf("add: index %d, want 0", c.Index)
	}
	tab.flush()
	c := tab.at(0)
	c.Status, c.ResponseSeq, c.Target = StatusOK, 7, "new"
	if tab.at(0) != c {
		t.Error("at returned another copy of a call already handed out")
	}
	tab.flush()
	if got := tab.calls.At(0); got.Status != StatusOK || got.ResponseSeq != 7 || got.Target != "new" || got.Method != "a" {
		t.Errorf("after flush: %+v", got)
	}
}

// TestPendingCallFootprint checks the live heap a pending call costs the
// store: its packed record, its id and its id index entry (it was about
// 370 bytes: a 288-byte Call and a string-keyed index).
func TestPendingCallFootprint(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const n = 50_000
	steps := make([]step, n)
	for i := range steps {
		steps[i] = c2s(0, req(strconv.Itoa(i+1), "tools/call", `{"name":"echo","arguments":{}}`))
	}
	data := captureOf(t, steps)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil)
	s.Ingest(r.Header())
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			break
		}
		s.Ingest(&rec)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if s.calls.len() != n {
		t.Fatalf("%d calls, want %d", s.calls.len(), n)
	}
	perCall := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
	t.Logf("%.0f bytes of live heap per pending call", perCall)
	if perCall > 240 {
		t.Errorf("a pending call costs %.0f bytes of live heap, want ≤ 240", perCall)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(data)
}
