package stdio

import "testing"

// TestReadBufferSlab follows one read buffer through the relay's use of
// it: kept reads advance it while a pipe's capacity is left, a copied read
// leaves it where it was, and it goes back to free, reset, only when the
// relay and every queued read have dropped it.
func TestReadBufferSlab(t *testing.T) {
	tp := &tap{}
	rb := tp.readBuf()
	if rb.off != 0 || rb.refs.Load() != 1 || len(rb.room()) != bufSize {
		t.Fatalf("a fresh buffer: off %d refs %d room %d", rb.off, rb.refs.Load(), len(rb.room()))
	}
	if got := tp.next(rb, 100, false); got != rb || rb.off != 0 {
		t.Fatalf("a copied read moved the buffer: same %v, off %d", got == rb, rb.off)
	}
	var kept []*readBuffer
	cur := rb
	for range 3 { // three full-pipe reads fit with minRoom left after each
		cur.refs.Add(1) // take's hold for the queued read
		kept = append(kept, cur)
		cur = tp.next(cur, minRoom, true)
	}
	if cur != rb || rb.off != 3*minRoom {
		t.Fatalf("after three kept reads: same %v, off %d, want the same buffer at %d", cur == rb, rb.off, 3*minRoom)
	}
	rb.refs.Add(1)
	kept = append(kept, rb)
	cur = tp.next(rb, minRoom, true) // no room left: a new buffer, the relay's hold dropped
	if cur == rb || rb.refs.Load() != 4 {
		t.Fatalf("a full slab: new %v, refs %d, want a new buffer and the 4 queued holds", cur != rb, rb.refs.Load())
	}
	for i, k := range kept {
		if len(tp.free) != 0 {
			t.Fatalf("the slab went back to free with %d of 4 queued reads still held", 4-i)
		}
		tp.unref(k)
	}
	if len(tp.free) != 1 || tp.free[0] != rb {
		t.Fatalf("free = %d buffers, want the slab back", len(tp.free))
	}
	again := tp.readBuf()
	if again != rb || again.off != 0 || again.refs.Load() != 1 {
		t.Fatalf("reused buffer: same %v, off %d, refs %d; want it reset", again == rb, again.off, again.refs.Load())
	}
}
