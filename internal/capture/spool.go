package capture

import (
	"encoding/base64"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/spool"
)

// SpoolAbove is the line size past which the taps stop holding a frame or
// stderr line in memory and spool it to a file instead (Spool), so that
// the proxy's memory does not grow with the size of one frame. The record
// written from a spool is byte for byte the one WriteLine would write.
const SpoolAbove = 4 << 20

// spoolChunk is how much of a spool WriteSpooled reads at a time.
const spoolChunk = 256 << 10

// Spool holds one frame or stderr line too large to keep in memory, in a
// file (an internal/spool.Spool that keeps nothing in memory), and
// classifies it as it grows, so that WriteSpooled can then stream its
// record in the same form WriteLine would choose (msg, raw, text or b64).
// Memory is bounded by the line's nesting depth, not its size. A Spool is
// used by one goroutine.
type Spool struct {
	buf  *spool.Spool
	scan lineScan
	err  error // the first write error; the spool is then useless
	// chunk is how much WriteSpooled reads at a time (spoolChunk when 0;
	// tests make it small to cut runes and escapes).
	chunk int
}

// NewSpool creates a spool for a line of type t in dir (the system's
// temporary directory when dir is empty). f, when not nil, is the
// NameFilter whose answer Selected reports. The file,
// .mcptrail-frame-*.spool, is created 0600 and removed at once where the
// system allows, else at Close.
func NewSpool(dir string, t Type, f *NameFilter) (*Spool, error) {
	buf, err := spool.NewFile(dir, ".mcptrail-frame")
	if err != nil {
		return nil, fmt.Errorf("creating a spool for a large frame: %w", err)
	}
	return &Spool{buf: buf, scan: newLineScan(t, f)}, nil
}

// Write appends p to the line.
func (s *Spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.buf.Write(p)
	if err != nil {
		s.err = fmt.Errorf("spooling a large frame: %w", err)
		return n, s.err
	}
	s.scan.feed(p)
	return n, nil
}

// Len returns the line's length so far.
func (s *Spool) Len() int64 { return s.buf.Len() }

// Selected reports what WriteLineUnselected would: false when the line is
// a frame holding one JSON value none of whose member names the spool's
// NameFilter selects, true otherwise.
func (s *Spool) Selected() bool { return !s.scan.valid() || s.scan.hit }

// Bytes reads the whole line back into memory.
func (s *Spool) Bytes() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	b := make([]byte, s.buf.Len())
	if _, err := s.buf.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("reading a spooled frame: %w", err)
	}
	return b, nil
}

// Close removes the spool's file.
func (s *Spool) Close() error { return s.buf.Remove() }

// valid reports whether the line is a frame holding one JSON object or
// array: scanPayload's valid.
func (s *lineScan) valid() bool {
	return s.frame && s.phase == phTrail && !s.badUTF && s.ncarry == 0
}

// WriteSpooled is AppendSpooled with positional arguments, kept for the
// tests that use it.
func (w *Writer) WriteSpooled(t Type, seq uint64, at time.Time, dir Dir, s *Spool, noEOL bool, conn string, env *HTTP) error {
	return w.AppendSpooled(&Line{Type: t, Seq: seq, Time: at, Dir: dir, NoEOL: noEOL, Conn: conn, HTTP: env}, s)
}

// AppendSpooled is Append for a line held in s (l.Bytes is ignored): it
// writes the same record, streaming the payload from the spool's file so
// that the Writer's buffer never holds more than about bufSize of it.
func (w *Writer) AppendSpooled(l *Line, s *Spool) error {
	t, seq, at, dir, noEOL, conn, env := l.Type, l.Seq, l.Time, l.Dir, l.NoEOL, l.Conn, l.HTTP
	if w.err != nil {
		return w.err
	}
	if s.err != nil {
		return s.err
	}
	w.buf = appendSize(w.appendHead(w.buf, t, seq, at, dir, conn, env), int(s.Len()))
	var err error
	switch sc := &s.scan; {
	case sc.valid():
		w.buf = append(w.buf, `,"msg":`...)
		mode := copyVerbatim
		if sc.newline {
			mode = copyCompact
		}
		err = w.copySpool(s, sc.start, sc.end, mode)
		if err == nil && (sc.start != 0 || sc.end != s.Len() || sc.newline) {
			w.buf = append(w.buf, `,"raw":"`...)
			err = w.copySpool(s, 0, s.Len(), copyQuote)
			w.buf = append(w.buf, '"')
		}
	case !sc.badUTF && sc.ncarry == 0:
		w.buf = append(w.buf, `,"text":"`...)
		err = w.copySpool(s, 0, s.Len(), copyQuote)
		w.buf = append(w.buf, '"')
	default:
		w.buf = append(w.buf, `,"b64":"`...)
		err = w.copySpool(s, 0, s.Len(), copyBase64)
		w.buf = append(w.buf, '"')
	}
	if err != nil {
		return err
	}
	if noEOL {
		w.buf = append(w.buf, `,"noeol":true`...)
	}
	w.buf = append(w.buf, "}\n"...)
	w.records++
	return w.spill()
}

// How copySpool encodes the bytes it copies.
type copyMode uint8

const (
	copyVerbatim copyMode = iota // as they are (msg)
	copyCompact                  // JSON without white space outside strings (msg of a value spanning lines)
	copyQuote                    // the contents of a JSON string (raw, text)
	copyBase64                   // standard base64 (b64)
)

// copySpool appends the spool's bytes [from, to) to the buffer, encoded by
// mode, writing the buffer out whenever it fills.
func (w *Writer) copySpool(s *Spool, from, to int64, mode copyMode) error {
	buf := make([]byte, spoolChunk)
	if s.chunk > 0 {
		buf = buf[:max(s.chunk, utf8.UTFMax)] // room for a whole rune
	}
	var inStr, esc bool // copyCompact's place in the JSON
	for from < to {
		n, err := s.buf.ReadAt(buf[:min(int64(len(buf)), to-from)], from)
		if n == 0 && err != nil {
			return fmt.Errorf("reading a spooled frame: %w", err)
		}
		p := buf[:n]
		switch mode {
		case copyVerbatim:
			w.buf = append(w.buf, p...)
		case copyCompact:
			w.buf, inStr, esc = appendCompact(w.buf, p, inStr, esc)
		case copyQuote:
			if from+int64(n) < to {
				p = p[:runeCut(p)]
			}
			w.buf = appendQuoted(w.buf, p)
		case copyBase64:
			if from+int64(n) < to {
				p = p[:len(p)-len(p)%3]
			}
			w.buf = base64.StdEncoding.AppendEncode(w.buf, p)
		}
		from += int64(len(p))
		if err := w.spill(); err != nil {
			return err
		}
	}
	return nil
}

// appendQuoted appends p as the contents of a JSON string, escaped as
// jsontext.AppendQuote escapes it (rune by rune, so a piece cut at a rune
// boundary escapes as it would within the whole).
func appendQuoted(b, p []byte) []byte {
	i := len(b)
	b, _ = jsontext.AppendQuote(b, p)
	return append(b[:i], b[i+1:len(b)-1]...)
}

// appendCompact appends the valid JSON text p without the white space
// outside its strings; inStr and esc carry the place between pieces.
func appendCompact(b, p []byte, inStr, esc bool) ([]byte, bool, bool) {
	for _, c := range p {
		switch {
		case esc:
			esc = false
		case inStr:
			esc = c == '\\'
			inStr = c != '"'
		case c == '"':
			inStr = true
		case isWS(c):
			continue
		}
		b = append(b, c)
	}
	return b, inStr, esc
}
