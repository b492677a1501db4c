package capture

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Writer appends records to a capture. Frames are encoded by hand on the hot
// path; other records go through the JSON encoder. Every Write either reaches
// the underlying buffer or returns an error: nothing is dropped silently.
type Writer struct {
	bw  *bufio.Writer
	buf []byte
	err error
	// lastAt and lastAtText cache the formatted time: the lines of one
	// chunk share it.
	lastAt     time.Time
	lastAtText []byte
}

// NewWriter returns a Writer that buffers into w. Call Flush to push
// buffered records to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{bw: bufio.NewWriterSize(w, 256<<10)}
}

// Write appends one record of any type.
func (w *Writer) Write(r *Record) error {
	if w.err != nil {
		return w.err
	}
	if r.Type == TypeFrame || r.Type == TypeStderr {
		return w.WriteLine(r.Type, r.Seq, r.Time, r.Dir, r.Bytes(), r.NoEOL, r.Conn, r.HTTP)
	}
	utc := *r
	utc.Time = r.Time.UTC()
	b, err := json.Marshal(&utc)
	if err != nil {
		return fmt.Errorf("encoding %s record: %w", r.Type, err)
	}
	return w.put(append(b, '\n'))
}

// WriteLine appends a frame or stderr record for line (without its newline).
// The line is embedded as JSON when it is valid UTF-8 JSON, as text when it
// is other UTF-8, and as base64 otherwise.
func (w *Writer) WriteLine(t Type, seq uint64, at time.Time, dir Dir, line []byte, noEOL bool, conn string, env *HTTP) error {
	if w.err != nil {
		return w.err
	}
	b := append(w.buf[:0], `{"type":"`...)
	b = append(b, t...)
	b = append(b, '"')
	if seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendUint(b, seq, 10)
	}
	b = append(b, `,"time":"`...)
	b = append(b, w.timeText(at)...)
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
	if env != nil {
		e, err := json.Marshal(env)
		if err != nil {
			return fmt.Errorf("encoding http envelope: %w", err)
		}
		b = append(b, `,"http":`...)
		b = append(b, e...)
	}
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, int64(len(line)), 10)
	b = appendPayload(b, t, line)
	if noEOL {
		b = append(b, `,"noeol":true`...)
	}
	b = append(b, "}\n"...)
	w.buf = b
	return w.put(b)
}

// timeText returns at formatted as RFC 3339 in UTC, reusing the last
// result when at is the same instant.
func (w *Writer) timeText(at time.Time) []byte {
	if w.lastAtText == nil || !at.Equal(w.lastAt) {
		w.lastAt = at
		w.lastAtText = at.UTC().AppendFormat(w.lastAtText[:0], time.RFC3339Nano)
	}
	return w.lastAtText
}

// appendPayload embeds line as msg (+raw), text or b64.
func appendPayload(b []byte, t Type, line []byte) []byte {
	if !utf8.Valid(line) {
		b = append(b, `,"b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, line)
		return append(b, '"')
	}
	if t == TypeFrame {
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && validJSON(trimmed) {
			msg := jsontext.Value(trimmed)
			if bytes.IndexByte(trimmed, '\n') >= 0 {
				// A record is one line: a body spanning lines (HTTP) is
				// embedded compacted, and raw keeps the exact bytes.
				msg = append(jsontext.Value(nil), trimmed...)
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
	}
	b = append(b, `,"text":`...)
	b, _ = jsontext.AppendQuote(b, line)
	return b
}

func (w *Writer) put(b []byte) error {
	if _, err := w.bw.Write(b); err != nil {
		w.err = fmt.Errorf("writing capture: %w", err)
	}
	return w.err
}

// Flush writes buffered records to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("flushing capture: %w", err)
	}
	return w.err
}

// Buffered returns the number of bytes waiting for Flush.
func (w *Writer) Buffered() int { return w.bw.Buffered() }
