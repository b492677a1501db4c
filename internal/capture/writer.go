package capture

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// bufSize is how many bytes a Writer gathers before it writes them out:
// captures are written in blocks of at least this size, or at Flush.
const bufSize = 256 << 10

// Writer appends records to a capture. Frames are encoded by hand on the hot
// path; other records go through the JSON encoder. Every Write either reaches
// the underlying buffer or returns an error: nothing is dropped silently.
type Writer struct {
	w   io.Writer
	buf []byte // encoded records not yet written to w
	err error
	// The lines of one chunk share a time and direction, and their seqs
	// count up: the text between seq and size, and the seq's digits, are
	// kept from the last record and reused.
	lastAt   time.Time
	lastDir  Dir
	lastConn string
	mid      []byte // `,"time":"…"` plus dir and conn, through `,"size":`
	lastSeq  uint64
	seqText  []byte
	// records counts the records appended; flushed the bytes that went
	// to w (for Pos).
	records int
	flushed int64
}

// NewWriter returns a Writer that buffers into w. Call Flush to push
// buffered records to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, bufSize+bufSize/4)}
}

// Write appends one record of any type.
func (w *Writer) Write(r *Record) error {
	if w.err != nil {
		return w.err
	}
	if r.Type == TypeFrame || r.Type == TypeStderr {
		return w.Append(&Line{Type: r.Type, Seq: r.Seq, Time: r.Time, Dir: r.Dir, Bytes: r.Bytes(), NoEOL: r.NoEOL,
			Conn: r.Conn, HTTP: r.HTTP, Redacted: r.Redacted, Size: r.Size})
	}
	utc := *r
	utc.Time = r.Time.UTC()
	b, err := json.Marshal(&utc, recordOptions)
	if err != nil {
		return fmt.Errorf("encoding %s record: %w", r.Type, err)
	}
	w.buf = append(append(w.buf, b...), '\n')
	w.records++
	return w.spill()
}

// recordOptions encode a record's fields and an HTTP envelope: map members
// (headers) in name order, so a run's capture is the same bytes each time;
// and a string that is not valid UTF-8 (a header value or a URL path as a
// peer sent it) with U+FFFD in place of the bad bytes, so such a string
// never costs the record.
var recordOptions = json.JoinOptions(json.Deterministic(true), jsontext.AllowInvalidUTF8(true))

// WriteLine is Append with positional arguments, kept for the tests that
// build captures with it; taps use Append.
func (w *Writer) WriteLine(t Type, seq uint64, at time.Time, dir Dir, line []byte, noEOL bool, conn string, env *HTTP) error {
	return w.Append(&Line{Type: t, Seq: seq, Time: at, Dir: dir, Bytes: line, NoEOL: noEOL, Conn: conn, HTTP: env})
}

// writeLine is Append that, given a NameFilter, writes nothing and
// returns false when the line is not a frame holding one JSON value or
// when f selects one of its member names (see AppendUnselected); it
// returns true when it wrote the record, after filling rec (when not
// nil) as Line.Record does.
func (w *Writer) writeLine(l *Line, f *NameFilter, rec *Record) (bool, error) {
	if w.err != nil {
		return false, w.err
	}
	p := scanPayload(l.Type, l.Bytes, f)
	if f != nil && (!p.valid || p.hit) {
		return false, nil
	}
	b := w.appendHead(w.buf, l.Type, l.Seq, l.Time, l.Dir, l.Conn, l.HTTP)
	b = appendSize(b, len(l.Bytes))
	b = appendPayload(b, l.Bytes, &p)
	if l.NoEOL {
		b = append(b, `,"noeol":true`...)
	}
	w.buf = append(b, "}\n"...)
	w.records++
	if rec != nil {
		l.decoded(&p, rec)
	}
	return true, w.spill()
}

// appendHead appends a frame or stderr record's members up to the size
// value: type, seq, time, dir, conn and the HTTP envelope.
func (w *Writer) appendHead(b []byte, t Type, seq uint64, at time.Time, dir Dir, conn string, env *HTTP) []byte {
	switch {
	case t == TypeFrame && seq != 0:
		b = append(b, `{"type":"frame","seq":`...)
		b = append(b, w.seqDigits(seq)...)
	default:
		b = append(b, `{"type":"`...)
		b = append(b, t...)
		b = append(b, '"')
		if seq != 0 {
			b = append(b, `,"seq":`...)
			b = strconv.AppendUint(b, seq, 10)
		}
	}
	if env == nil {
		b = append(b, w.midText(at, dir, conn)...)
	} else {
		b = appendMid(b, at, dir, conn)
		b = appendEnvelope(b, env)
		b = append(b, `,"size":`...)
	}
	return b
}

// seqDigits returns seq in decimal, counting up from the last seq in place
// when seq follows it.
func (w *Writer) seqDigits(seq uint64) []byte {
	if seq != w.lastSeq+1 || len(w.seqText) == 0 {
		w.lastSeq = seq
		w.seqText = strconv.AppendUint(w.seqText[:0], seq, 10)
		return w.seqText
	}
	w.lastSeq = seq
	d := w.seqText
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] != '9' {
			d[i]++
			return d
		}
		d[i] = '0'
	}
	w.seqText = append(append(d[:0:0], '1'), d...)
	return w.seqText
}

// midText returns the fields between seq and the size value for a record
// without an HTTP envelope, reusing the last result for the same instant,
// direction and connection.
func (w *Writer) midText(at time.Time, dir Dir, conn string) []byte {
	if w.mid == nil || !at.Equal(w.lastAt) || dir != w.lastDir || conn != w.lastConn {
		w.lastAt, w.lastDir, w.lastConn = at, dir, conn
		w.mid = append(appendMid(w.mid[:0], at, dir, conn), `,"size":`...)
	}
	return w.mid
}

// appendSize appends n in decimal; frames are mostly under 10 kB.
func appendSize(b []byte, n int) []byte {
	switch {
	case n < 10:
		return append(b, byte('0'+n))
	case n < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	case n < 1000:
		return append(b, byte('0'+n/100), byte('0'+n/10%10), byte('0'+n%10))
	case n < 10000:
		return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// appendMid appends the time, dir and conn fields.
func appendMid(b []byte, at time.Time, dir Dir, conn string) []byte {
	b = append(b, `,"time":"`...)
	b = at.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if dir != "" {
		b = append(b, `,"dir":"`...)
		b = append(b, dir...)
		b = append(b, '"')
	}
	if conn != "" {
		b = append(b, `,"conn":`...)
		b, _ = jsontext.AppendQuote(b, conn)
	}
	return b
}

// appendEnvelope appends the "http" member: env encoded as json.Marshal
// with recordOptions would (headers in name order, invalid UTF-8 as
// U+FFFD), without its reflection.
func appendEnvelope(b []byte, env *HTTP) []byte {
	b = append(b, `,"http":{`...)
	first := true
	member := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
	}
	str := func(name, v string) {
		if v != "" {
			member(name)
			b, _ = jsontext.AppendQuote(b, v) // invalid UTF-8 is appended as U+FFFD
		}
	}
	str("exchange", env.Exchange)
	str("method", env.Method)
	str("path", env.Path)
	if env.Status != 0 {
		member("status")
		b = strconv.AppendInt(b, int64(env.Status), 10)
	}
	if len(env.Headers) > 0 {
		member("headers")
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(env.Headers)) {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = jsontext.AppendQuote(b, k)
			b = append(b, ':')
			b, _ = jsontext.AppendQuote(b, env.Headers[k])
		}
		b = append(b, '}')
	}
	str("url", env.URL)
	str("event", env.Event)
	return append(b, '}')
}

// linePayload is what scanPayload found out about a line.
type linePayload struct {
	msg    []byte // the line trimmed of white space, when valid
	valid  bool   // a frame holding one JSON object or array
	spaced bool   // msg holds white space outside strings
	hit    bool   // the NameFilter selects one of msg's member names
}

// scanPayload classifies a frame or stderr line for appendPayload.
func scanPayload(t Type, line []byte, f *NameFilter) linePayload {
	var p linePayload
	if t == TypeFrame && len(line) > 0 {
		trimmed := line
		if c, e := line[0], line[len(line)-1]; c <= ' ' || c >= utf8.RuneSelf || e <= ' ' || e >= utf8.RuneSelf {
			trimmed = bytes.TrimSpace(line)
		}
		// validJSON checks UTF-8 too: a valid message is valid UTF-8, and
		// so is what TrimSpace took from around it.
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			p.valid, p.spaced, p.hit = scanJSON(trimmed, f)
			p.msg = trimmed
		}
	}
	return p
}

// appendPayload embeds line as msg (+raw), text or b64.
func appendPayload(b []byte, line []byte, p *linePayload) []byte {
	if p.valid {
		msg := jsontext.Value(p.msg)
		if p.spaced && bytes.IndexByte(msg, '\n') >= 0 {
			// A record is one line: a body spanning lines (HTTP) is
			// embedded compacted, and raw keeps the exact bytes.
			msg = append(jsontext.Value(nil), msg...)
			_ = msg.Compact()
		}
		b = append(b, `,"msg":`...)
		b = append(b, msg...)
		if len(msg) != len(line) {
			b = append(b, `,"raw":`...)
			b, _ = jsontext.AppendQuote(b, line)
		}
		return b
	}
	if !utf8.Valid(line) {
		b = append(b, `,"b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, line)
		return append(b, '"')
	}
	b = append(b, `,"text":`...)
	b, _ = jsontext.AppendQuote(b, line)
	return b
}

// spill writes the buffer out once it holds bufSize bytes.
func (w *Writer) spill() error {
	if len(w.buf) < bufSize {
		return nil
	}
	return w.Flush()
}

// Flush writes buffered records to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) == 0 {
		return nil
	}
	n, err := w.w.Write(w.buf)
	w.flushed += int64(n)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.buf = w.buf[:copy(w.buf, w.buf[n:])]
		w.err = fmt.Errorf("writing capture: %w", err)
		return w.err
	}
	if cap(w.buf) > 4*bufSize {
		// A huge record grew the buffer: do not keep it.
		w.buf = make([]byte, 0, bufSize+bufSize/4)
	} else {
		w.buf = w.buf[:0]
	}
	return nil
}

// Pos returns where the next record goes in what the Writer writes: its
// line, from 1, and the byte offset of its start, both counted from the
// Writer's first record (a capture appended to starts further on).
func (w *Writer) Pos() (line int, offset int64) {
	return w.records + 1, w.flushed + int64(len(w.buf))
}

// Buffered returns the number of bytes waiting for Flush.
func (w *Writer) Buffered() int { return len(w.buf) }
