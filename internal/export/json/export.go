// Package jsonexport renders a session as one JSON document (the shape is
// documented in docs/export-json.md): session, frames, stderr (only when
// the server wrote any line), calls, operations, elicitations (only when
// the session asked any), catalog (only when the client got a list
// result), auth (only when the capture holds HTTP exchanges: the
// authorization flows internal/oauth reads), summary and findings, in that
// order. It is a view: it reads
// store frames, stderr lines and snapshots and never re-parses or
// correlates.
//
// A Writer streams: feed it every frame and stderr line the store ingests
// (Frame and Stderr are made to be store.Options.OnFrame and OnStderr),
// then call Finish with the final snapshot. Frames and stderr lines are
// encoded by hand as they arrive and spooled (in memory, then in a
// temporary file) because the session object that precedes them is only
// known at the end. A Writer is not safe for concurrent use.
package jsonexport

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/spool"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Options tune a Writer. A nil *Options means the zero value.
type Options struct {
	// SpoolDir is where frames spill once they pass SpoolMemory bytes; ""
	// means os.TempDir().
	SpoolDir string
	// SpoolMemory is how many bytes of encoded frames are kept in memory
	// before spilling; zero means 4 MiB.
	SpoolMemory int
}

// Writer streams a JSON export to an io.Writer.
type Writer struct {
	opts   Options
	out    io.Writer
	spool  *spool.Spool // the encoded frames; it buffers its own writes
	buf    []byte
	n      int
	stderr stderrSpool // the server's stderr lines (stderr.go)
	err    error
	auth   *oauth.Auth // the authorization flows (SetAuth); nil: none
}

// SetAuth gives the writer the session's authorization flows, as the
// session loader read them once (session.Session.Auth), for Finish to
// show; without it Finish shows none. a must not change until Finish.
func (w *Writer) SetAuth(a *oauth.Auth) { w.auth = a }

// New returns a Writer that writes the export to w when Finish is called.
func New(w io.Writer, opts *Options) *Writer {
	if opts == nil {
		opts = &Options{}
	}
	jw := &Writer{opts: *opts, out: w, spool: spool.New(opts.SpoolDir, ".mcptrail-export", opts.SpoolMemory)}
	return jw
}

// Frame encodes one frame. It matches store.Options.OnFrame; errors are
// sticky and reported by Finish.
func (w *Writer) Frame(f *store.Frame) {
	if w.err != nil {
		return
	}
	b := w.buf[:0]
	if w.n > 0 {
		b = append(b, ",\n"...)
	}
	w.n++
	if r := f.Record; r != nil && len(r.Msg) > bigMsg {
		// A large message goes to the spool as it is, not through b.
		o := frameHead(b, f)
		o.key("msg")
		w.buf = o.b
		w.write(o.b)
		w.write(r.Msg)
		w.write([]byte{'}'})
		return
	}
	b = appendFrame(b, f)
	w.write(b)
	if cap(b) > bigMsg {
		b = nil // a large text or b64 payload: do not keep its buffer
	}
	w.buf = b
}

// bigMsg is the message size above which Frame writes the message
// directly instead of copying it into the frame's encoding.
const bigMsg = 64 << 10

// write spools b; errors are sticky.
func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	if _, err := w.spool.Write(b); err != nil {
		w.err = err
	}
}

// Finish writes the whole document: the session from s, the spooled frames,
// then calls, operations, summary and findings from s. It does not close the
// underlying writer; call Close to release the spool.
func (w *Writer) Finish(s *store.Snapshot) error {
	if w.err != nil {
		return w.err
	}
	out := bufio.NewWriterSize(w.out, 256<<10)
	b := append(w.buf[:0], `{"session":`...)
	b = appendSession(b, &s.Session)
	b = append(b, ",\n\"frames\":["...)
	if w.n > 0 {
		b = append(b, '\n')
	}
	if _, err := out.Write(b); err != nil {
		return fmt.Errorf("writing export: %w", err)
	}
	if _, err := w.spool.WriteTo(out); err != nil {
		return fmt.Errorf("writing export: %w", err)
	}
	hadFrames, err := w.writeStderr(out)
	if err != nil {
		return fmt.Errorf("writing export: %w", err)
	}
	if err := writeTail(out, s, readAuth(s, w.auth), hadFrames); err != nil {
		return fmt.Errorf("writing export: %w", err)
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("writing export: %w", err)
	}
	return nil
}

// Close releases the spools. It is safe to call more than once.
func (w *Writer) Close() error {
	err := w.spool.Remove()
	if w.stderr.spool != nil {
		err = errors.Join(err, w.stderr.spool.Remove())
	}
	return err
}

// writeTail writes everything after the frames: one element per line,
// written out every 32 KiB so that the buffer does not grow with the
// session (a million findings made it hold all of them).
func writeTail(out *bufio.Writer, s *store.Snapshot, auth *oauth.Auth, hadFrames bool) error {
	t := tail{out: out, b: make([]byte, 0, 4096)}
	if hadFrames {
		t.b = append(t.b, '\n')
	}
	t.b = append(t.b, "],\n\"calls\":["...)
	for i := range s.Calls.Len() {
		t.b = appendSep(t.b, i)
		c := s.Calls.At(i)
		t.b = appendCall(t.b, &c)
		t.flush(false)
	}
	t.b = appendEnd(t.b, s.Calls.Len(), "],\n\"operations\":[")
	for i, op := range s.Operations.All() {
		t.b = appendSep(t.b, i)
		t.b = appendOperation(t.b, &op)
		t.flush(false)
	}
	t.b = appendEnd(t.b, s.Operations.Len(), "]")
	ledger := s.Ledger.Slice()
	t.b = appendLedger(t.b, ledger)
	t.catalog(s.Catalog, s.Apps())
	t.b = appendAuth(t.b, auth)
	t.b = append(t.b, ",\n\"summary\":"...)
	t.b = appendSummary(t.b, &s.Summary, &s.Counts)
	t.b = appendLedgerSummary(t.b, ledger)
	t.b = append(t.b, ",\n\"findings\":["...)
	i := 0
	for f := range s.Findings.All() {
		t.b = appendSep(t.b, i)
		t.b = appendFinding(t.b, &f)
		t.flush(false)
		i++
	}
	t.b = appendEnd(t.b, i, "]}\n")
	t.flush(true)
	return t.err
}

// tail buffers the encoding of the tail; errors are sticky.
type tail struct {
	out *bufio.Writer
	b   []byte
	err error
}

// flush writes the buffer once it passes 32 KiB, or always with all set.
func (t *tail) flush(all bool) {
	if !all && len(t.b) <= 32<<10 {
		return
	}
	if t.err == nil {
		_, t.err = t.out.Write(t.b)
	}
	t.b = t.b[:0]
}

func appendSep(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ",\n"...)
	}
	return append(b, '\n')
}

func appendEnd(b []byte, n int, s string) []byte {
	if n > 0 {
		b = append(b, '\n')
	}
	return append(b, s...)
}
