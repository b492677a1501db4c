package jsonexport

import (
	"bufio"
	"encoding/base64"

	"github.com/mcptrail/mcptrail/internal/capture"

	"github.com/mcptrail/mcptrail/internal/spool"
	"github.com/mcptrail/mcptrail/internal/store"
)

// stderrSpool holds the encoded stderr lines until Finish, beside the
// frames and for the same reason: they come before the tail.
type stderrSpool struct {
	spool *spool.Spool
	w     *bufio.Writer
	n     int
}

// Stderr encodes one line of the server's stderr. It matches
// store.Options.OnStderr; errors are sticky and reported by Finish.
func (w *Writer) Stderr(l *store.StderrLine) {
	if w.err != nil {
		return
	}
	e := &w.stderr
	if e.spool == nil {
		e.spool = spool.New(w.opts.SpoolDir, ".mcptrail-export", w.opts.SpoolMemory)
		e.w = bufio.NewWriterSize(e.spool, 16<<10)
	}
	b := w.buf[:0]
	if e.n > 0 {
		b = append(b, ",\n"...)
	}
	e.n++
	b = appendStderr(b, l)
	if _, err := e.w.Write(b); err != nil {
		w.err = err
	}
	if cap(b) > bigMsg {
		b = nil // a huge line: do not keep its buffer
	}
	w.buf = b
}

// appendStderr encodes one stderr line: index, time, size, the line as
// text (or base64 when it is not UTF-8), and noeol.
func appendStderr(b []byte, l *store.StderrLine) []byte {
	o := openObject(b)
	o.int("index", int64(l.Index))
	o.time("time", l.Time)
	r := l.Record
	text := stderrText(r)
	size := r.Size
	if size == 0 {
		size = len(text) + len(r.B64)
	}
	o.int("size", int64(size))
	if r.B64 != nil {
		o.key("b64")
		o.b = append(o.b, '"')
		o.b = base64.StdEncoding.AppendEncode(o.b, r.B64)
		o.b = append(o.b, '"')
	} else {
		o.str("text", text)
	}
	if r.NoEOL {
		o.bool("noeol", true)
	}
	return o.close()
}

// stderrText is a UTF-8 stderr line's text: the taps write it as text; a
// record that holds it as raw or msg instead is read the same way.
func stderrText(r *capture.Record) string {
	switch {
	case r.Raw != "":
		return r.Raw
	case len(r.Msg) > 0:
		return string(r.Msg)
	}
	return r.Text
}

// writeStderr ends the frames array and writes the stderr array from the
// spool, when the server wrote any line; it reports whether the array
// left open (frames, or stderr) has elements, as writeTail wants to know.
func (w *Writer) writeStderr(out *bufio.Writer) (bool, error) {
	e := &w.stderr
	if e.n == 0 {
		return w.n > 0, nil
	}
	if err := e.w.Flush(); err != nil {
		return false, err
	}
	b := w.buf[:0]
	if w.n > 0 {
		b = append(b, '\n')
	}
	b = append(b, "],\n\"stderr\":[\n"...)
	if _, err := out.Write(b); err != nil {
		return false, err
	}
	if _, err := e.spool.WriteTo(out); err != nil {
		return false, err
	}
	return true, nil
}
