package httpproxy

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// The capture queue's bounds. Past either, taps wait for the capture
// goroutine before reserving a new slot (backpressure); nothing is dropped.
const (
	maxQueuedBytes = 32 << 20
	maxQueuedSlots = 16 << 10
)

// slot is one record's place in the capture. A frame slot gets its seq when
// it is reserved, which happens before the bytes that complete the frame
// are forwarded; its record is filled in later (a request body's last
// bytes may still be on their way). The capture goroutine writes slots in
// reservation order and waits for a slot at the head to be filled, so the
// file is in seq order.
type slot struct {
	rec    capture.Record
	filled bool
	n      int // the bytes the slot holds in the queue's budget
}

// queue is the seq counter and the capture queue under one mutex.
type queue struct {
	now func() time.Time
	off bool // no capture: slots are handed out but never queued

	mu     sync.Mutex
	room   sync.Cond
	seq    uint64
	slots  []*slot
	bytes  int
	closed bool
	wake   chan struct{}

	frames, frameBytes int64 // frames reserved and their filled bytes
	done               chan error
}

func newQueue(now func() time.Time) *queue {
	q := &queue{now: now, wake: make(chan struct{}, 1), done: make(chan error, 1)}
	q.room.L = &q.mu
	return q
}

// reserve appends an empty slot and, for a frame, gives it the next seq
// and the current time. It waits while the queue is full.
func (q *queue) reserve(frame bool) *slot {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.closed && len(q.slots) > 0 && (q.bytes > maxQueuedBytes || len(q.slots) >= maxQueuedSlots) {
		q.room.Wait()
	}
	s := &slot{}
	s.rec.Time = q.now()
	if frame {
		q.seq++
		q.frames++
		s.rec.Type = capture.TypeFrame
		s.rec.Seq = q.seq
	}
	if !q.closed && !q.off {
		q.slots = append(q.slots, s)
	}
	return s
}

// fill completes a reserved slot. The record's Seq and Time are kept from
// the reservation; the caller sets the rest through set.
func (q *queue) fill(s *slot, set func(r *capture.Record)) {
	q.mu.Lock()
	if s.filled {
		q.mu.Unlock()
		return
	}
	set(&s.rec)
	s.filled = true
	n := len(s.rec.Raw) + len(s.rec.Text)
	s.n = n
	if !q.off {
		q.bytes += n
	}
	if s.rec.Type == capture.TypeFrame {
		q.frameBytes += int64(n)
	}
	q.mu.Unlock()
	if !q.off {
		q.signal()
	}
}

func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// counts returns the frames reserved and the bytes of those filled.
func (q *queue) counts() (frames, n int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.frames, q.frameBytes
}

// take removes the filled slots at the head of the queue. It reports
// false when the queue is closed and fully drained.
func (q *queue) take(batch []*slot) ([]*slot, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := 0
	for i < len(q.slots) && q.slots[i].filled {
		batch = append(batch, q.slots[i])
		i++
	}
	q.slots = q.slots[:copy(q.slots, q.slots[i:])]
	return batch, !(q.closed && len(q.slots) == 0 && i == 0)
}

// release frees the room the written slots held.
func (q *queue) release(batch []*slot) {
	q.mu.Lock()
	for _, s := range batch {
		q.bytes -= s.n
	}
	q.room.Broadcast()
	q.mu.Unlock()
}

// run is the capture goroutine: it writes the session header, then the
// slots in order (each through red, when it is not nil), flushing whenever
// it has caught up, until close.
func (q *queue) run(w io.Writer, header *capture.Record, red Redactor) {
	rec := &recorder{w: capture.NewWriter(w), redact: red}
	rec.write(header)
	rec.flush()
	var batch []*slot
	poll := time.NewTimer(time.Hour)
	defer poll.Stop()
	for {
		var more bool
		batch, more = q.take(batch[:0])
		for _, s := range batch {
			rec.write(&s.rec)
		}
		q.release(batch)
		clear(batch)
		if !more {
			q.done <- rec.finish(q.now())
			return
		}
		if len(batch) == 0 {
			rec.flush()
			poll.Reset(50 * time.Millisecond)
			select {
			case <-q.wake:
			case <-poll.C:
			}
		}
	}
}

// close stops reserving, fills nothing, and waits for the capture
// goroutine to write what is queued and the end record. Every reserved
// slot must be filled (taps fill theirs on every path) before it returns.
func (q *queue) close() error {
	q.mu.Lock()
	q.closed = true
	q.room.Broadcast()
	q.mu.Unlock()
	q.signal()
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case err := <-q.done:
		return err
	case <-t.C:
	}
	// A tap never filled its slot (it should not happen): write what
	// is known rather than hang.
	q.mu.Lock()
	for _, s := range q.slots {
		s.filled = true
	}
	q.mu.Unlock()
	q.signal()
	return <-q.done
}

// closeGrace is how long close waits for reserved slots to be filled.
const closeGrace = 5 * time.Second

// recorder writes records and accounts for a failed capture.
type recorder struct {
	w      *capture.Writer
	redact Redactor
	err    error
	lost   struct{ frames, bytes, other int64 }
}

func (r *recorder) write(rec *capture.Record) {
	if r.redact != nil && rec.Type != capture.TypeEnd {
		r.redact.Record(rec)
	}
	if r.err == nil {
		if r.err = r.w.Write(rec); r.err == nil {
			return
		}
	}
	if rec.Type == capture.TypeFrame {
		r.lost.frames++
		r.lost.bytes += int64(len(rec.Bytes()))
	} else {
		r.lost.other++
	}
}

func (r *recorder) flush() {
	if r.err == nil {
		r.err = r.w.Flush()
	}
}

// finish writes the end record, or a capture-gap note when writing failed
// (best effort: the file is probably unwritable).
func (r *recorder) finish(at time.Time) error {
	r.write(&capture.Record{Type: capture.TypeEnd, Time: at})
	r.flush()
	if r.err == nil {
		return nil
	}
	return fmt.Errorf("capture incomplete: %d frames (%d bytes) and %d other records not recorded: %w",
		r.lost.frames, r.lost.bytes, r.lost.other, r.err)
}
