package httpproxy

import (
	"io"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/capq"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// queueOptions is the capture queue's policy: past its bounds (32 MiB,
// 16,384 records) taps wait for the capture goroutine before reserving a
// new slot (backpressure); nothing is dropped. Every fill wakes the capture
// goroutine, which also looks every 50 ms and never sleeps longer.
func queueOptions() *capq.Options {
	return &capq.Options{
		MaxBytes:     32 << 20,
		MaxItems:     16 << 10,
		PollInterval: 50 * time.Millisecond,
		PollRounds:   -1,
	}
}

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
	// spool, when not nil, holds the frame's bytes (a body larger than
	// capture.SpoolAbove); the capture goroutine closes it.
	spool  *capture.Spool
	queued bool        // the slot is in the queue, so the capture goroutine will see it
	ticket capq.Ticket // its place in the queue, when queued
}

// queue is the seq counter and the capture queue under the queue's lock.
type queue struct {
	now func() time.Time
	off bool // no capture: slots are handed out but never queued
	// spoolDir is where bodies larger than capture.SpoolAbove wait for
	// their record (Options.SpoolDir).
	spoolDir string

	q *capq.Queue[*slot]
	// Under q's lock:
	seq                uint64
	frames, frameBytes int64 // frames reserved and their filled bytes
	done               chan error
}

func newQueue(now func() time.Time) *queue {
	return &queue{now: now, q: capq.New[*slot](queueOptions()), done: make(chan error, 1)}
}

// reserve appends an empty slot and, for a frame, gives it the next seq
// and the current time. It waits while the queue is full.
func (q *queue) reserve(frame bool) *slot {
	if frame {
		return q.reserveSeq(capture.TypeFrame)
	}
	return q.reserveSeq("")
}

// reserveSeq is reserve for a record of type t: a frame, or an exchange or
// tunnel record, which takes its seq from the same counter; "" reserves a
// slot without a seq (a note).
func (q *queue) reserveSeq(t capture.Type) *slot {
	q.q.Lock()
	defer q.q.Unlock()
	q.q.WaitRoomLocked(0)
	s := &slot{}
	s.rec.Time = q.now()
	if t != "" {
		q.seq++
		s.rec.Type = t
		s.rec.Seq = q.seq
	}
	if t == capture.TypeFrame {
		q.frames++
	}
	if !q.q.ClosedLocked() && !q.off {
		s.ticket = q.q.ReserveLocked(s)
		s.queued = true
	}
	return s
}

// fill completes a reserved slot. The record's Seq and Time are kept from
// the reservation; the caller sets the rest through set.
func (q *queue) fill(s *slot, set func(r *capture.Record)) {
	q.fillSpooled(s, nil, set)
}

// fillSpooled is fill for a frame whose bytes are in sp (nil: in the
// record), which the capture goroutine writes and closes.
func (q *queue) fillSpooled(s *slot, sp *capture.Spool, set func(r *capture.Record)) {
	q.q.Lock()
	if s.filled || !s.queued {
		if sp != nil {
			_ = sp.Close()
			sp = nil
		}
	}
	if s.filled {
		q.q.Unlock()
		return
	}
	set(&s.rec)
	s.filled, s.spool = true, sp
	s.n = len(s.rec.Raw) + len(s.rec.Text)
	if x := s.rec.Exchange; x != nil {
		s.n += len(x.ReqBody) + len(x.RespBody)
	}
	if s.queued {
		q.q.FillLocked(s.ticket, s.n)
	}
	if s.rec.Type == capture.TypeFrame {
		q.frameBytes += int64(s.rec.Size)
	}
	q.q.Unlock()
	if !q.off {
		q.q.Signal()
	}
}

// counts returns the frames reserved and the bytes of those filled.
func (q *queue) counts() (frames, n int64) {
	q.q.Lock()
	defer q.q.Unlock()
	return q.frames, q.frameBytes
}

// run is the capture goroutine: it writes the session header, then the
// slots in order (record.Drain; the recorder redacts each with
// opts.Redact, writes it and hands it to the feed), flushing whenever it
// has caught up, until close.
func (q *queue) run(w io.Writer, header *capture.Record, opts *record.Options) {
	if w == nil {
		w = io.Discard // records go to the feed only
	}
	out := record.New(w, opts)
	defer out.Close()
	out.Record(header)
	out.Flush()
	record.Drain(q.q, out, func(s **slot) (int, bool) {
		writeSlot(out, *s)
		return (*s).n, false
	})
	q.done <- out.Finish(q.now())
}

// close stops reserving, fills nothing, and waits for the capture
// goroutine to write what is queued and the end record. Every reserved
// slot must be filled (taps fill theirs on every path) before it returns.
func (q *queue) close() error {
	q.q.Lock()
	q.q.CloseLocked()
	q.q.Unlock()
	q.q.Signal()
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case err := <-q.done:
		return err
	case <-t.C:
	}
	// A tap never filled its slot (it should not happen): write what
	// is known rather than hang.
	q.q.Lock()
	q.q.FillAllLocked(func(s *slot) { s.filled = true })
	q.q.Unlock()
	q.q.Signal()
	return <-q.done
}

// closeGrace is how long close waits for reserved slots to be filled.
const closeGrace = 5 * time.Second

// writeSlot writes a slot's record through out, streaming a spooled frame
// from its file. Redaction works on the record in memory, so with a
// Redactor a spooled frame is read back whole first.
func writeSlot(out *record.Recorder, s *slot) {
	sp := s.spool
	if sp == nil {
		out.Record(&s.rec)
		return
	}
	s.spool = nil
	defer sp.Close()
	rec := &s.rec
	if out.Err() != nil {
		out.Lose(rec.Type, rec.Seq, rec.Size)
		return
	}
	if out.Redactor() != nil || out.LiveOnly() {
		b, err := sp.Bytes()
		if err != nil {
			out.Wrote(rec.Type, rec.Seq, rec.Size, err) // recording stops, as after a failed write
			return
		}
		rec.Raw = string(b)
		out.Record(rec)
		return
	}
	l := capture.Line{Type: rec.Type, Seq: rec.Seq, Time: rec.Time, Dir: rec.Dir, NoEOL: rec.NoEOL, Conn: rec.Conn, HTTP: rec.HTTP}
	err := out.Writer().AppendSpooled(&l, sp)
	out.Wrote(rec.Type, rec.Seq, rec.Size, err)
	if err == nil {
		out.Skip() // a consumer reads it from the capture file
	}
}
