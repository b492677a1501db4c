// Package feed fans the records a tap writes out to live consumers. It
// sits beside the capture writer, under the taps: the capture goroutine
// hands each record to Publish right after the Writer took it, in capture
// order, and each consumer reads them through its own Sub.
//
// A consumer never slows the traffic: Publish never blocks. It never sees
// a hole either: when a consumer's bounded queue overflows, it stops being
// fed live and, once it has read what was queued, re-reads the rest of
// the session from the durable capture file (capture.Follow), starting
// with the first record it missed. Without a capture file (--no-capture)
// a consumer that falls behind loses the records that do not fit, and
// Sub.Lost says how many.
//
// Publish, Skip and Close are called from one goroutine (the capture
// goroutine); each Sub is read by one goroutine.
package feed

import (
	"sync"
	"sync/atomic"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Default bounds of a Sub's queue.
const (
	DefaultRecords = 16 << 10
	DefaultBytes   = 16 << 20
)

// Options configure a Feed.
type Options struct {
	// Path is the capture file the records are written to, from which a
	// consumer that fell behind catches up; empty means none (no
	// capture): such a consumer loses records instead.
	Path string
	// Lines and Offset are the lines and bytes in the capture file before
	// this run's first record (capture.File.Start): a record's Line and
	// Offset, which the tap sets from its Writer's Pos, are moved on by
	// them so they are where a Reader finds the record. Zero for a fresh
	// file.
	Lines  int
	Offset int64
}

// SubOptions bound a Sub's queue; zero means the defaults.
type SubOptions struct {
	Records int
	Bytes   int64
}

// Feed hands records to its Subs.
type Feed struct {
	path   string
	lines  int
	offset int64
	mu     sync.Mutex
	subs   []*Sub
	// live counts the Subs still fed live (not behind, not closed).
	live atomic.Int64
}

// New returns a Feed without consumers; nil opts means no capture file.
func New(opts *Options) *Feed {
	f := &Feed{}
	if opts != nil {
		f.path, f.lines, f.offset = opts.Path, opts.Lines, opts.Offset
	}
	return f
}

// Subscribe adds a consumer. Subscribe before the first Publish: a Sub
// added later misses what was published before.
func (f *Feed) Subscribe(opts *SubOptions) *Sub {
	s := &Sub{feed: f, path: f.path, maxRecords: DefaultRecords, maxBytes: DefaultBytes, ready: make(chan struct{}, 1)}
	if opts != nil && opts.Records > 0 {
		s.maxRecords = opts.Records
	}
	if opts != nil && opts.Bytes > 0 {
		s.maxBytes = opts.Bytes
	}
	f.mu.Lock()
	f.subs = append(f.subs, s)
	f.mu.Unlock()
	f.live.Add(1)
	return s
}

// Live reports whether a consumer is still handed records live; when none
// is (all read from the capture file), publishing is a no-op and a tap
// can skip building records.
func (f *Feed) Live() bool { return f.live.Load() > 0 }

// Publish hands rec to every consumer without blocking. The feed keeps a
// copy of rec and shares its byte slices among the consumers, which only
// read them: the caller must not modify them afterwards (Line.Record
// builds a record that owns its payload). A record's Line and Offset,
// when set, count from the tap Writer's start (capture.Writer.Pos).
func (f *Feed) Publish(rec *capture.Record) {
	c := *rec
	if c.Line > 0 {
		c.Line += f.lines
		c.Offset += f.offset
	}
	rec = &c
	f.mu.Lock()
	subs := f.subs
	f.mu.Unlock()
	for _, s := range subs {
		s.offer(rec, false)
	}
}

// PublishLine publishes the record a Writer wrote for l (Line.Record).
func (f *Feed) PublishLine(l *capture.Line) {
	if !f.Live() {
		return
	}
	var rec capture.Record
	l.Record(&rec)
	f.Publish(&rec)
}

// PublishWritten publishes a record as a Reader decodes it once a Writer
// wrote it: a frame or stderr record gets its payload in the form the
// file holds (msg, raw, text or b64), and every record its time in UTC;
// Line and Offset are kept (see Publish). rec is not modified and may be
// reused.
func (f *Feed) PublishWritten(rec *capture.Record) {
	if !f.Live() {
		return
	}
	if rec.Type == capture.TypeFrame || rec.Type == capture.TypeStderr {
		l := capture.Line{Type: rec.Type, Seq: rec.Seq, Time: rec.Time, Dir: rec.Dir, Conn: rec.Conn, HTTP: rec.HTTP,
			Bytes: rec.Bytes(), NoEOL: rec.NoEOL, Redacted: rec.Redacted, Size: rec.Size}
		var c capture.Record
		l.Record(&c)
		c.Line, c.Offset = rec.Line, rec.Offset
		f.Publish(&c)
		return
	}
	c := *rec
	c.Time = rec.Time.UTC()
	f.Publish(&c)
}

// Durable reports whether a consumer that falls behind catches up from a
// capture file (else it loses records): a tap may Skip a record too
// large to hold only when it does.
func (f *Feed) Durable() bool { return f.path != "" }

// Skip accounts for a record that went to the capture but is not handed
// out live (a line too large to hold in memory): a consumer reads it from
// the capture file, or, without one, counts it lost.
func (f *Feed) Skip() {
	f.mu.Lock()
	subs := f.subs
	f.mu.Unlock()
	for _, s := range subs {
		s.offer(nil, true)
	}
}

// Close says no record follows: each consumer reads what is queued and
// then io.EOF (or, behind, the rest of the file up to its end record).
func (f *Feed) Close() {
	f.mu.Lock()
	subs := f.subs
	f.mu.Unlock()
	for _, s := range subs {
		s.close()
	}
}
