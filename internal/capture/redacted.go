package capture

import (
	"fmt"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
)

// WriteRedactedLine is WriteLine for a line that redaction rewrote: line is
// the redacted line, size the size of the line as received, and the record
// is marked redacted.
func (w *Writer) WriteRedactedLine(t Type, seq uint64, at time.Time, dir Dir, line []byte, size int, noEOL bool, conn string, env *HTTP) error {
	if w.err != nil {
		return w.err
	}
	b := append(w.buf, `{"type":"`...)
	b = append(b, t...)
	b = append(b, '"')
	if seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendUint(b, seq, 10)
	}
	b = appendMid(b, at, dir, conn)
	if env != nil {
		e, err := json.Marshal(env)
		if err != nil {
			return fmt.Errorf("encoding http envelope: %w", err)
		}
		b = append(b, `,"http":`...)
		b = append(b, e...)
	}
	b = append(b, `,"size":`...)
	b = appendSize(b, size)
	p := scanPayload(t, line, nil)
	b = appendPayload(b, line, &p)
	if noEOL {
		b = append(b, `,"noeol":true`...)
	}
	w.buf = append(b, `,"redacted":true}`+"\n"...)
	return w.spill()
}

// WriteLineUnselected is WriteLine for a redacting tap, found out in the
// one pass that validates the frame: it writes the record and reports true
// when line is a frame holding one JSON value none of whose member names f
// selects, and otherwise writes nothing and reports false, for the caller
// to redact the line and write what results. A nil f selects nothing: the
// line is written as WriteLine writes it.
func (w *Writer) WriteLineUnselected(t Type, seq uint64, at time.Time, dir Dir, line []byte, noEOL bool, f *NameFilter) (bool, error) {
	return w.writeLine(t, seq, at, dir, line, noEOL, "", nil, f)
}
