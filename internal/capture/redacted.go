package capture

import (
	"time"
)

// WriteRedactedLine is Append for a line that redaction rewrote: line is
// the redacted line, size the size of the line as received, and the record
// is marked redacted. Taps use Append with Line.Redacted and Line.Size.
func (w *Writer) WriteRedactedLine(t Type, seq uint64, at time.Time, dir Dir, line []byte, size int, noEOL bool, conn string, env *HTTP) error {
	return w.Append(&Line{Type: t, Seq: seq, Time: at, Dir: dir, Bytes: line, Size: size, Redacted: true, NoEOL: noEOL, Conn: conn, HTTP: env})
}

// appendRedacted writes the record of a line redaction rewrote, and fills
// rec (when not nil) as Line.Record does.
func (w *Writer) appendRedacted(l *Line, rec *Record) error {
	t, seq, at, dir, line, size, noEOL, conn, env := l.Type, l.Seq, l.Time, l.Dir, l.Bytes, l.Size, l.NoEOL, l.Conn, l.HTTP
	if w.err != nil {
		return w.err
	}
	b := appendSize(w.appendHead(w.buf, t, seq, at, dir, conn, env), size)
	p := scanPayload(t, line, nil)
	b = appendPayload(b, line, &p)
	if noEOL {
		b = append(b, `,"noeol":true`...)
	}
	w.buf = append(b, `,"redacted":true}`+"\n"...)
	w.records++
	if rec != nil {
		l.decoded(&p, rec)
	}
	return w.spill()
}

// WriteLineUnselected is AppendUnselected with positional arguments, kept
// for the tests that use it.
func (w *Writer) WriteLineUnselected(t Type, seq uint64, at time.Time, dir Dir, line []byte, noEOL bool, f *NameFilter) (bool, error) {
	return w.writeLine(&Line{Type: t, Seq: seq, Time: at, Dir: dir, Bytes: line, NoEOL: noEOL}, f, nil)
}
