package stdio

import (
	"bytes"
	"io"
	"runtime"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// yieldEvery is how many lines the capture goroutine records between
// yields to the relays.
const yieldEvery = 128

// maxKeptPartial is the largest partial-line buffer kept for reuse after a
// long line completes.
const maxKeptPartial = 1 << 20

// recorder is the capture goroutine: it turns queued chunks into records,
// which out writes, publishes and accounts for.
type recorder struct {
	out     *record.Recorder
	w       *capture.Writer // out's
	partial [numStreams][]byte

	lines int // lines recorded, for yieldEvery
	// redact is out's Redactor: when not nil, it rewrites the lines
	// before they are written.
	redact redact.Redactor
	// spool holds, per stream, an unfinished line that grew past
	// capture.SpoolAbove (partial is then empty); spoolDir is where such
	// files go (Options.SpoolDir).
	spool    [numStreams]*capture.Spool
	spoolDir string
	// rec is the record built for the feed, reused (Publish keeps a copy).
	rec capture.Record
}

// newRecorder returns a recorder writing to w with opts (Options.Feed,
// Options.OnCaptureError, Options.Redact).
func newRecorder(w io.Writer, opts *record.Options) *recorder {
	out := record.New(w, opts)
	return &recorder{out: out, w: out.Writer(), redact: out.Redactor()}
}

// header writes and flushes the session record.
func (r *recorder) header(h *capture.Record) {
	r.out.Record(h)
	r.out.Flush()
}

// run records t's queue until the stop item (record.Drain), then ends
// the capture; the queue calls flush whenever it is momentarily empty, so
// a crash loses little.
func (r *recorder) run(t *tap) error {
	defer r.out.Close()
	var end time.Time
	record.Drain(t.q, r.out, func(it *item) (int, bool) {
		switch it.kind {
		case itemData:
			r.data(it)
		case itemEOF:
			r.eof(it)
		case itemNote:
			r.out.Record(it.rec)
		case itemStop:
			end = it.at
			return 0, true
		}
		if it.buf != nil {
			t.unref(it.buf)
		}
		return len(it.data), false
	})
	return r.out.Finish(end)
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
	if r.out.Err() != nil {
		r.out.Lose(t, seq, len(line))
		return
	}
	r.out.Wrote(t, seq, len(line), r.writeLine(t, seq, it, line, noEOL))
}

// spooledLine is line for a line held in a spool.
func (r *recorder) spooledLine(it *item, seq uint64, sp *capture.Spool, noEOL bool) {
	t := lineType(it.stream)
	if t == capture.TypeStderr {
		seq = 0
	}
	size := int(sp.Len())
	if r.out.Err() != nil {
		r.out.Lose(t, seq, size)
		return
	}
	r.out.Wrote(t, seq, size, r.writeSpooled(t, seq, it, sp, noEOL))
}
