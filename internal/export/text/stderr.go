package textexport

import (
	"bufio"
	"fmt"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/spool"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// lines is a section's lines held for Finish: in memory up to the
// Writer's SpoolMemory, then in a temporary file.
type lines struct {
	spool *spool.Spool
	w     *bufio.Writer
	n     int
	noEOL int // stderr only: 1 + the index of a line without a newline
}

// add spools line b for the Writer w; errors are sticky in w.err.
func (l *lines) add(w *Writer, b []byte) {
	if l.spool == nil {
		l.spool = spool.New(w.opts.SpoolDir, ".mcptrail-export", w.opts.SpoolMemory)
		l.w = bufio.NewWriterSize(l.spool, 64<<10)
	}
	l.n++
	if _, err := l.w.Write(b); err != nil {
		w.err = err
	}
}

// writeTo copies the spooled lines to out.
func (l *lines) writeTo(out *bufio.Writer) error {
	if l.spool == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return err
	}
	_, err := l.spool.WriteTo(out)
	return err
}

func (l *lines) remove() error {
	if l.spool == nil {
		return nil
	}
	return l.spool.Remove()
}

// Stderr spools one line of the server's stderr, its time and its text
// escaped for the terminal (bytes that are not UTF-8 as \x escapes). It
// matches store.Options.OnStderr; errors are sticky and reported by
// Finish.
func (w *Writer) Stderr(l *store.StderrLine) {
	if w.err != nil {
		return
	}
	b := append(w.buf[:0], "  "...)
	b = appendPad(b, strconv.Itoa(l.Index), 6)
	b = append(b, ' ')
	b = appendPad(b, offset(w.start, l.Time), 9)
	b = append(b, ' ')
	b = termtext.Append(b, stderrText(l))
	b = append(b, '\n')
	if l.Record.NoEOL {
		w.stderr.noEOL = l.Index + 1
	}
	w.stderr.add(w, b)
	if cap(b) > 64<<10 {
		b = nil // a huge line: do not keep its buffer
	}
	w.buf = b
}

// stderrText is the line's bytes as a string: its text, or the bytes
// that are not UTF-8.
func stderrText(l *store.StderrLine) string {
	r := l.Record
	switch {
	case r.B64 != nil:
		return string(r.B64)
	case r.Raw != "":
		return r.Raw
	case len(r.Msg) > 0:
		return string(r.Msg)
	}
	return r.Text
}

// writeStderr writes the stderr section, when the server wrote any line.
func (w *Writer) writeStderr() error {
	if w.stderr.n == 0 {
		return nil
	}
	fmt.Fprintf(w.out, "\nstderr (%s)\n  %-6s %-9s %s\n", plural(w.stderr.n, "line"), "LINE", "TIME", "TEXT")
	if err := w.stderr.writeTo(w.out); err != nil {
		return err
	}
	if w.stderr.noEOL > 0 {
		fmt.Fprintf(w.out, "  (line %d ended without a newline)\n", w.stderr.noEOL-1)
	}
	return nil
}
