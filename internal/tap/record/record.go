// Package record is both taps' capture goroutine: Drain takes the tap's
// capture queue (internal/tap/capq) in batches, and a Recorder redacts
// the records (internal/redact, redaction on write), writes them through a
// capture.Writer, hands each one written to the live feed
// (internal/tap/feed), and accounts for what a failed write loses. It sits
// under the taps (internal/tap/stdio, internal/tap/httpproxy) and over
// internal/capture; what a record holds and how a frame line is encoded on
// the hot path stays the tap's business.
//
// # Loss accounting
//
// The capture is the durable record: a record that could not be written is
// accounted for, never lost silently. After the first failed write (a full
// disk) a Recorder writes nothing more and counts what it is handed, plus
// the records that were buffered when the write failed and never reached
// the file; Finish then appends, on a fresh line, a capture-gap note with
// those exact counts and the end record (best effort: the disk may still be
// full).
//
// # Concurrency
//
// A Recorder belongs to one goroutine, the tap's capture goroutine (the
// one that calls Drain), except that Options.OnError is called from it.
package record

import (
	"fmt"
	"io"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/capq"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// pruneAt is how many marks a Recorder gathers before it drops those of
// records already in the file.
const pruneAt = 4096

// Options configure a Recorder; a nil *Options means the zero values.
type Options struct {
	// Feed, when not nil, is handed every record written, in capture
	// order; nil means no live consumer.
	Feed *feed.Feed
	// OnError, when not nil, is called once, at the first failed write,
	// with its error: recording has stopped, the tap goes on relaying and
	// Finish reports the loss. Nil says nothing until Finish.
	OnError func(error)
	// Redact, when not nil, rewrites every record Record writes before it
	// is written; a tap that encodes lines itself redacts them with it too
	// (Recorder.Redactor). Nil records everything as received.
	Redact redact.Redactor
}

// Lost counts what a failed capture lost: frame records and their sizes
// (the bytes that crossed), and every other record (stderr lines, notes,
// exchange records, the end). FirstSeq and LastSeq are the smallest and
// largest seq among the lost records that carry one (frames, and on HTTP
// exchange and tunnel records); zero when none did.
type Lost struct {
	Frames, Bytes, Other int64
	FirstSeq, LastSeq    uint64
}

// Recorder writes a tap's records and accounts for a failed capture. Create
// it with New.
type Recorder struct {
	cw      *countingWriter
	w       *capture.Writer
	feed    *feed.Feed
	onError func(error)
	redact  redact.Redactor

	// marks holds, for each record not yet known to be in the file, where
	// it ends, so a failed write can count exactly what it lost.
	marks []mark
	seen  int   // the records the Writer took, as of the last Wrote
	err   error // the first write error; nothing is written after it
	lost  Lost
	// session is the last session record written, which Finish writes
	// again before its note when not one byte reached the file.
	session *capture.Record
}

// mark is a buffered record: the offset its line ends at, its seq, its
// size and whether it is a frame.
type mark struct {
	end   int64
	seq   uint64
	size  int
	frame bool
}

// New returns a Recorder writing to w.
func New(w io.Writer, opts *Options) *Recorder {
	cw := &countingWriter{w: w}
	r := &Recorder{cw: cw, w: capture.NewWriter(cw)}
	if opts != nil {
		r.feed, r.onError, r.redact = opts.Feed, opts.OnError, opts.Redact
	}
	return r
}

// Writer is the capture.Writer records go through, for a tap that encodes
// lines itself (capture.Writer.AppendDecoded and the like); it must report
// each such write to Wrote.
func (r *Recorder) Writer() *capture.Writer { return r.w }

// Redactor returns Options.Redact, for the lines a tap encodes itself.
func (r *Recorder) Redactor() redact.Redactor { return r.redact }

// Err returns the first write error, or nil while recording goes on.
func (r *Recorder) Err() error { return r.err }

// Lost returns what was not recorded so far.
func (r *Recorder) Lost() Lost { return r.lost }

// Live reports whether a feed consumer is still handed records live, so a
// tap that builds records for Publish has to.
func (r *Recorder) Live() bool { return r.feed != nil && r.feed.Live() }

// LiveOnly reports whether a feed consumer can get records only live (it
// has no capture file to catch up from): a line must then be published
// from memory rather than streamed to the file and skipped.
func (r *Recorder) LiveOnly() bool { return r.feed != nil && !r.feed.Durable() }

// Publish hands the feed a record the tap built for a line it wrote (see
// capture.Writer.AppendDecoded), with its place in the capture.
func (r *Recorder) Publish(rec *capture.Record) {
	if r.feed != nil {
		r.feed.Publish(rec)
	}
}

// Skip tells the feed a line went to the file only (too large to hold):
// a consumer reads it from the capture file.
func (r *Recorder) Skip() {
	if r.feed != nil {
		r.feed.Skip()
	}
}

// Record redacts rec (Options.Redact), writes it, of any type, and hands
// it to the feed as a Reader will decode it; it sets rec's Line and
// Offset. After a failure it only counts rec as lost.
func (r *Recorder) Record(rec *capture.Record) {
	if r.err != nil {
		r.Lose(rec.Type, rec.Seq, rec.Size)
		return
	}
	if r.redact != nil {
		r.redact.Record(rec)
	}
	if rec.Type == capture.TypeSession {
		c := *rec
		r.session = &c
	}
	rec.Line, rec.Offset = r.w.Pos() // for the feed; the Writer ignores them
	err := r.w.Write(rec)
	r.Wrote(rec.Type, rec.Seq, rec.Size, err)
	if err == nil && r.feed != nil {
		r.feed.PublishWritten(rec)
	}
}

// Wrote accounts for a record of type t and seq (0 when it has none), of
// size bytes when a frame, whose write through Writer returned err. The
// caller writes nothing while Err is set, and reports what it drops then
// to Lose.
func (r *Recorder) Wrote(t capture.Type, seq uint64, size int, err error) {
	line, _ := r.w.Pos()
	if line-1 > r.seen {
		// The Writer took it, whole: it ends where the buffer does (a
		// failed write keeps what it did not write), file bytes included.
		r.seen = line - 1
		r.marks = append(r.marks, mark{end: r.cw.n + int64(r.w.Buffered()), seq: seq, size: size, frame: t == capture.TypeFrame})
		if err != nil {
			r.fail(err)
		} else if len(r.marks) >= pruneAt {
			r.pruneMarks(r.cw.n)
		}
		return
	}
	if err != nil {
		r.fail(err)
		r.Lose(t, seq, size)
	}
}

// Lose counts a record of type t and seq (0 when it has none), of size
// bytes when a frame, that was not written.
func (r *Recorder) Lose(t capture.Type, seq uint64, size int) {
	r.lose(t == capture.TypeFrame, seq, size)
}

func (r *Recorder) lose(frame bool, seq uint64, size int) {
	if seq != 0 {
		if r.lost.FirstSeq == 0 || seq < r.lost.FirstSeq {
			r.lost.FirstSeq = seq
		}
		r.lost.LastSeq = max(r.lost.LastSeq, seq)
	}
	if frame {
		r.lost.Frames++
		r.lost.Bytes += int64(size)
	} else {
		r.lost.Other++
	}
}

// Flush writes the buffered records to the file.
func (r *Recorder) Flush() {
	if r.err != nil || r.w.Buffered() == 0 {
		return
	}
	if err := r.w.Flush(); err != nil {
		r.fail(err)
		return
	}
	r.marks = r.marks[:0]
}

// pruneMarks drops the marks of records that end at or before offset n.
func (r *Recorder) pruneMarks(n int64) {
	i := 0
	for i < len(r.marks) && r.marks[i].end <= n {
		i++
	}
	r.marks = r.marks[:copy(r.marks, r.marks[i:])]
}

// fail stops recording after err and counts the records that were
// buffered but never reached the file.
func (r *Recorder) fail(err error) {
	if r.err != nil {
		return
	}
	r.err = err
	// A record that lacks only its newline is whole once Finish starts
	// its note on a fresh line (without that newline, no note is written).
	r.pruneMarks(r.cw.n + 1)
	for _, m := range r.marks {
		r.lose(m.frame, m.seq, m.size)
	}
	r.marks = nil
	if r.onError != nil {
		r.onError(err)
	}
}

// Finish writes the end record, or after a failure tries to account for
// the loss with a capture-gap note and the end record on a fresh line. It
// returns nil when the capture is whole, else an error saying what was
// lost and whether the note is in the file. It does not close the feed.
func (r *Recorder) Finish(at time.Time) error {
	end := &capture.Record{Type: capture.TypeEnd, Time: at}
	if r.err == nil {
		r.Record(end)
		r.Flush()
		if r.err == nil {
			return nil
		}
	}
	w := capture.NewWriter(r.cw)
	if r.cw.n == 0 && r.session != nil {
		// Nothing reached the file: the note needs its session record.
		if w.Write(r.session) == nil {
			r.lost.Other--
		}
	}
	gap := &capture.Record{
		Type: capture.TypeNote, Time: at, Note: capture.NoteCaptureGap,
		LostFrame: r.lost.Frames, LostBytes: r.lost.Bytes, LostOther: r.lost.Other,
		LostFirstSeq: r.lost.FirstSeq, LostLastSeq: r.lost.LastSeq,
		Text: fmt.Sprintf("capture write failed (%v); %d other records lost", r.err, r.lost.Other),
	}
	lostErr := fmt.Errorf("capture incomplete: %d frames (%d bytes) and %d other records not recorded: %w",
		r.lost.Frames, r.lost.Bytes, r.lost.Other, r.err)
	if r.cw.n > 0 && r.cw.last != '\n' {
		if _, err := r.cw.Write([]byte{'\n'}); err != nil {
			return lostErr
		}
	}
	if w.Write(gap) != nil || w.Write(end) != nil || w.Flush() != nil {
		return lostErr
	}
	if r.feed != nil {
		r.feed.PublishWritten(gap)
		r.feed.PublishWritten(end)
	}
	return fmt.Errorf("%w (recorded in a capture-gap note)", lostErr)
}

// Close tells the feed no record follows.
func (r *Recorder) Close() {
	if r.feed != nil {
		r.feed.Close()
	}
}

// Drain is a tap's capture loop over q: it hands write the items q has
// ready, in order, and gives their room back to q (write returns the bytes
// an item held in q's budget), flushing r whenever q is momentarily
// empty, so that a crash loses little. It returns when write reports the
// tap's last item (stop) or q is closed and empty; the caller then ends
// the capture (Finish, Close).
func Drain[T any](q *capq.Queue[T], r *Recorder, write func(*T) (held int, stop bool)) {
	var batch []T
	done := 0
	flush := r.Flush
	for {
		var more bool
		batch, more = q.Next(batch, done, flush)
		if !more {
			return
		}
		done = 0
		for i := range batch {
			n, stop := write(&batch[i])
			if stop {
				return
			}
			done += n
		}
		clear(batch)
	}
}

// countingWriter counts the bytes that reached w and remembers the last.
type countingWriter struct {
	w    io.Writer
	n    int64
	last byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if n > 0 {
		c.last = p[n-1]
	}
	return n, err
}
