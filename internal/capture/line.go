package capture

import (
	"bytes"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Line is one frame or stderr line as a tap hands it to a Writer: the
// bytes as they crossed (without the newline) and where they belong. It is
// the Writer's argument for frame and stderr records, lighter on the hot
// path than a Record, whose payload is already encoded.
type Line struct {
	// Type is TypeFrame or TypeStderr.
	Type Type
	// Seq is the frame's seq; zero for none (stderr lines).
	Seq uint64
	// Time is when the line crossed.
	Time time.Time
	// Dir is the direction of a frame; empty for stderr.
	Dir Dir
	// Conn names the connection; empty for none.
	Conn string
	// HTTP is the envelope of a frame that crossed HTTP; nil for none.
	HTTP *HTTP
	// Bytes are the line's bytes, without its newline. When Redacted they
	// are the redacted line.
	Bytes []byte
	// NoEOL is set on a stream's last line when it had no newline.
	NoEOL bool
	// Redacted marks a line redaction rewrote; Size is then the size of
	// the line as received (zero Size with Redacted false means
	// len(Bytes)).
	Redacted bool
	Size     int
}

// size is the size the record states.
func (l *Line) size() int {
	if l.Redacted {
		return l.Size
	}
	return len(l.Bytes)
}

// Append appends the frame or stderr record for l. Bytes are embedded as
// JSON when they are valid UTF-8 JSON, as text when they are other UTF-8,
// and as base64 otherwise.
func (w *Writer) Append(l *Line) error {
	return w.AppendDecoded(l, nil)
}

// AppendDecoded is Append that, when rec is not nil and the record was
// written, also fills rec as Line.Record does, from the same pass over
// the bytes.
func (w *Writer) AppendDecoded(l *Line, rec *Record) error {
	if l.Redacted {
		return w.appendRedacted(l, rec)
	}
	_, err := w.writeLine(l, nil, rec)
	return err
}

// AppendUnselected is Append for a redacting tap, found out in the one
// pass that validates the frame: it writes the record and reports true
// when l is a frame holding one JSON value none of whose member names f
// selects, and otherwise writes nothing and reports false, for the caller
// to redact the line and write what results. A nil f selects nothing: the
// line is written as Append writes it. When it wrote the record and rec
// is not nil, it fills rec as AppendDecoded does.
func (w *Writer) AppendUnselected(l *Line, f *NameFilter, rec *Record) (bool, error) {
	return w.writeLine(l, f, rec)
}

// Record fills rec with the record a Reader decodes from the line Append
// writes for l, without encoding it: what a live consumer is handed
// instead of the bytes. rec owns its payload (l.Bytes may be reused); its
// Line and Offset are zero.
func (l *Line) Record(rec *Record) {
	p := scanPayload(l.Type, l.Bytes, nil)
	l.decoded(&p, rec)
}

// decoded fills rec for l, whose payload scanPayload classified as p.
func (l *Line) decoded(p *linePayload, rec *Record) {
	*rec = Record{
		Type: l.Type, Seq: l.Seq, Time: l.Time.UTC(), Dir: l.Dir, Conn: l.Conn,
		Size: l.size(), NoEOL: l.NoEOL, HTTP: l.HTTP, Redacted: l.Redacted,
	}
	line := l.Bytes
	switch {
	case p.valid:
		msg := bytes.Clone(p.msg)
		if p.spaced && bytes.IndexByte(msg, '\n') >= 0 {
			_ = (*jsontext.Value)(&msg).Compact()
		}
		rec.Msg = msg
		if len(msg) != len(line) {
			rec.Raw = string(line)
		}
	case !utf8.Valid(line):
		rec.B64 = bytes.Clone(line)
	default:
		rec.Text = string(line)
	}
}
