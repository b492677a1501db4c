package stdio

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// yieldEvery is how many lines the capture goroutine records between
// yields to the relays.
const yieldEvery = 128

// maxKeptPartial is the largest partial-line buffer kept for reuse after a
// long line completes.
const maxKeptPartial = 1 << 20

// recorder is the capture goroutine: it turns queued chunks into records.
type recorder struct {
	cw      *countingWriter
	w       *capture.Writer
	partial [numStreams][]byte

	// marks holds the end offset and size of each frame record not yet
	// known to be in the file, so a write failure can count exactly what
	// was lost.
	marks []mark
	err   error // the first capture write error; recording stops after it
	lines int   // lines recorded, for yieldEvery
	lost  struct{ frames, bytes, other int64 }
	// redact, when not nil, rewrites records before they are written.
	redact Redactor
	// spool holds, per stream, an unfinished line that grew past
	// capture.SpoolAbove (partial is then empty); spoolDir is where such
	// files go (Options.SpoolDir).
	spool    [numStreams]*capture.Spool
	spoolDir string
	// feed, when not nil, is handed each record written (Options.Feed);
	// rec is the record built for it, reused (Publish keeps a copy).
	feed *feed.Feed
	rec  capture.Record
}

type mark struct {
	end  int64
	size int
}

func newRecorder(w io.Writer) *recorder {
	cw := &countingWriter{w: w}
	return &recorder{cw: cw, w: capture.NewWriter(cw)}
}

// header writes and flushes the session record.
func (r *recorder) header(h *capture.Record) {
	r.record(h)
	r.flush()
}

// run records t's queue in batches until the stop item; the queue calls
// flush whenever it is momentarily empty, so a crash loses little.
func (r *recorder) run(t *tap) error {
	if r.feed != nil {
		defer r.feed.Close()
	}
	var batch []item
	done := 0
	flush := r.flush
	for {
		batch, _ = t.q.Next(batch, done, flush)
		done = 0
		for i := range batch {
			it := &batch[i]
			switch it.kind {
			case itemData:
				r.data(it)
			case itemEOF:
				r.eof(it)
			case itemNote:
				r.record(it.rec)
			case itemStop:
				return r.finish(it.at)
			}
			done += len(it.data)
			t.release(it.data)
		}
		clear(batch)
	}
}

// data writes a record for each line the chunk completes and keeps the
// rest as the stream's partial line.
func (r *recorder) data(it *item) {
	b, seq := it.data, it.base
	if len(r.partial[it.stream]) > 0 || r.spool[it.stream] != nil {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			r.appendPartial(it.stream, b)
			return
		}
		r.appendPartial(it.stream, b[:i])
		seq++
		r.endPartial(it, seq, false)
		b = b[i+1:]
	}
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		seq++
		r.line(it, seq, b[:i], false)
		if r.lines++; r.lines%yieldEvery == 0 {
			// Let a relay back from a blocking read have this P now,
			// not at the next preemption.
			runtime.Gosched()
		}
		b = b[i+1:]
	}
	r.appendPartial(it.stream, b)
}

// eof writes the stream's partial line, if any, as a NoEOL record.
func (r *recorder) eof(it *item) {
	if len(r.partial[it.stream]) > 0 || r.spool[it.stream] != nil {
		r.endPartial(it, it.base+1, true)
	}
}

// appendPartial adds b to stream s's unfinished line. Past
// capture.SpoolAbove the line moves to a spool file, so that one huge
// line does not hold its size in memory; if no spool can be created it
// stays in memory.
func (r *recorder) appendPartial(s stream, b []byte) {
	if len(b) == 0 {
		return
	}
	if sp := r.spool[s]; sp != nil {
		_, _ = sp.Write(b) // an error is sticky: WriteSpooled reports it
		return
	}
	p := &r.partial[s]
	if len(*p)+len(b) <= capture.SpoolAbove {
		*p = append(*p, b...)
		return
	}
	sp, err := capture.NewSpool(r.spoolDir, lineType(s), r.filter(s))
	if err != nil {
		*p = append(*p, b...)
		return
	}
	_, _ = sp.Write(*p)
	_, _ = sp.Write(b)
	r.spool[s] = sp
	r.partial[s] = nil
}

// filter is the Redactor's NameFilter for the frames of stream s, or nil.
func (r *recorder) filter(s stream) *capture.NameFilter {
	if r.redact == nil || s == streamStderr {
		return nil
	}
	return r.redact.Names(s.dir())
}

func lineType(s stream) capture.Type {
	if s == streamStderr {
		return capture.TypeStderr
	}
	return capture.TypeFrame
}

// endPartial writes the stream's unfinished line, from memory or from its
// spool, and forgets it.
func (r *recorder) endPartial(it *item, seq uint64, noEOL bool) {
	s := it.stream
	if sp := r.spool[s]; sp != nil {
		r.spooledLine(it, seq, sp, noEOL)
		_ = sp.Close()
		r.spool[s] = nil
		return
	}
	r.line(it, seq, r.partial[s], noEOL)
	r.resetPartial(s)
}

func (r *recorder) resetPartial(s stream) {
	if cap(r.partial[s]) > maxKeptPartial {
		r.partial[s] = nil
	} else {
		r.partial[s] = r.partial[s][:0]
	}
}

// line writes one frame or stderr record.
func (r *recorder) line(it *item, seq uint64, line []byte, noEOL bool) {
	t := lineType(it.stream)
	if t == capture.TypeStderr {
		seq = 0
	}
	if r.err != nil {
		r.countLost(t, len(line))
		return
	}
	r.wrote(t, len(line), r.writeLine(t, seq, it, line, noEOL))
}

// spooledLine is line for a line held in a spool.
func (r *recorder) spooledLine(it *item, seq uint64, sp *capture.Spool, noEOL bool) {
	t := lineType(it.stream)
	if t == capture.TypeStderr {
		seq = 0
	}
	size := int(sp.Len())
	if r.err != nil {
		r.countLost(t, size)
		return
	}
	r.wrote(t, size, r.writeSpooled(t, seq, it, sp, noEOL))
}

// wrote accounts for a frame or stderr record of size bytes whose write
// returned err.
func (r *recorder) wrote(t capture.Type, size int, err error) {
	if err != nil {
		r.fail(err)
		r.countLost(t, size)
		return
	}
	if t == capture.TypeFrame {
		r.marks = append(r.marks, mark{end: r.cw.n + int64(r.w.Buffered()), size: size})
		if len(r.marks) >= 4096 {
			r.pruneMarks()
		}
	}
}

// record writes a session, note or end record.
func (r *recorder) record(rec *capture.Record) {
	if r.err != nil {
		r.lost.other++
		return
	}
	if r.redact != nil {
		r.redact.Record(rec)
	}
	rec.Line, rec.Offset = r.w.Pos() // for the feed; the Writer ignores them
	if err := r.w.Write(rec); err != nil {
		r.fail(err)
		r.lost.other++
		return
	}
	if r.feed != nil {
		r.feed.PublishWritten(rec)
	}
}

func (r *recorder) countLost(t capture.Type, size int) {
	if t == capture.TypeFrame {
		r.lost.frames++
		r.lost.bytes += int64(size)
	} else {
		r.lost.other++
	}
}

func (r *recorder) flush() {
	if r.err != nil || r.w.Buffered() == 0 {
		return
	}
	if err := r.w.Flush(); err != nil {
		r.fail(err)
		return
	}
	r.marks = r.marks[:0]
}

// pruneMarks drops the marks of records already in the file.
func (r *recorder) pruneMarks() {
	i := 0
	for i < len(r.marks) && r.marks[i].end <= r.cw.n {
		i++
	}
	r.marks = r.marks[:copy(r.marks, r.marks[i:])]
}

// fail stops recording after err and counts the frames whose records were
// buffered but never reached the file.
func (r *recorder) fail(err error) {
	r.err = err
	r.pruneMarks()
	for _, m := range r.marks {
		r.lost.frames++
		r.lost.bytes += int64(m.size)
	}
	r.marks = nil
}

// finish writes the end record, or after a failure tries to account for
// the loss with a capture-gap note on a fresh line.
func (r *recorder) finish(at time.Time) error {
	end := &capture.Record{Type: capture.TypeEnd, Time: at}
	if r.err == nil {
		r.record(end)
		r.flush()
		if r.err == nil {
			return nil
		}
	}
	gap := &capture.Record{
		Type: capture.TypeNote, Time: at, Note: capture.NoteCaptureGap,
		LostFrame: r.lost.frames, LostBytes: r.lost.bytes,
		Text: fmt.Sprintf("capture write failed (%v); %d other records lost", r.err, r.lost.other),
	}
	lostErr := fmt.Errorf("capture incomplete: %d frames (%d bytes) not recorded: %w", r.lost.frames, r.lost.bytes, r.err)
	if r.cw.n > 0 && r.cw.last != '\n' {
		if _, err := r.cw.Write([]byte{'\n'}); err != nil {
			return lostErr
		}
	}
	w := capture.NewWriter(r.cw)
	if w.Write(gap) == nil && w.Write(end) == nil && w.Flush() == nil {
		if r.feed != nil {
			r.feed.PublishWritten(gap)
			r.feed.PublishWritten(end)
		}
		return fmt.Errorf("%w (recorded in a capture-gap note)", lostErr)
	}
	return lostErr
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
