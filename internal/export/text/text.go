// Package textexport renders a session as a readable text report: a
// title, the session's details, a per-method and per-tool summary with
// latency percentiles, its MRTR operations with their rounds, the
// elicitation ledger (when there is one), the findings, then the calls,
// the catalog (when there is one), the server's stderr lines (when it
// wrote any) and, last, the frames one per line. It is a view: it reads
// store frames, stderr lines and snapshots and never re-parses or
// correlates. Its output may reach a terminal, so every string that came
// from the capture passes termtext.Escape (or strconv.Quote) on its way
// out.
//
// A Writer takes frames and stderr lines as the store ingests them (Frame
// and Stderr are made to be store.Options.OnFrame and OnStderr), spools
// their lines, and writes the whole document from the final snapshot in
// Finish. Summary writes the report without the frames or stderr lines.
// Neither is safe for concurrent use.
package textexport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/units"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Options tune a Writer. A nil *Options means the zero value.
type Options struct {
	// SpoolDir is where the frame lines (and stderr lines) spill once they
	// pass SpoolMemory bytes; "" means os.TempDir().
	SpoolDir string
	// SpoolMemory is how many bytes of each are kept in memory before
	// spilling; zero means 4 MiB.
	SpoolMemory int
}

// Writer streams a text export. The report comes first and the frames,
// which arrive first, last: each frame line is written to a spool as it
// arrives (in memory, then a temporary file), so memory stays bounded
// whatever the capture's size, and Finish copies it out at the end.
type Writer struct {
	opts   Options
	out    *bufio.Writer
	start  time.Time
	title  string
	frames lines // the frame lines (frames.go's Frame)
	stderr lines // the server's stderr lines (stderr.go)
	buf    []byte
	err    error
	layout Layout      // how the tables fit (layout.go)
	auth   *oauth.Auth // the authorization flows (SetAuth); nil: none
}

// SetAuth gives the writer the session's authorization flows, as the
// session loader read them once (session.Session.Auth), for Finish to
// show; without it Finish shows none. a must not change until Finish.
func (w *Writer) SetAuth(a *oauth.Auth) { w.auth = a }

// New returns a Writer for the capture whose session record is h.
func New(w io.Writer, h *capture.Record, opts *Options) *Writer {
	if opts == nil {
		opts = &Options{}
	}
	return &Writer{opts: *opts, out: bufio.NewWriterSize(w, 64<<10), start: h.Time, title: title(h.SessionID, h.Label)}
}

func title(id, label string) string {
	if label == "" {
		return "mcptrail session " + termtext.Escape(id)
	}
	return fmt.Sprintf("mcptrail session %s (%s)", termtext.Escape(id), termtext.Escape(label))
}

// Frame spools one frame line. It matches store.Options.OnFrame; errors
// are sticky and reported by Finish.
func (w *Writer) Frame(f *store.Frame) {
	if w.err != nil {
		return
	}
	b := append(w.buf[:0], "  #"...)
	b = appendPad(b, strconv.FormatUint(f.Seq, 10), 4)
	b = append(b, ' ')
	b = appendPad(b, offset(w.start, f.Time), 9)
	b = append(b, ' ')
	b = appendPad(b, termtext.Escape(string(f.Dir)), 3)
	b = append(b, ' ')
	b = appendPad(b, f.Kind.String(), 12)
	b = append(b, ' ')
	b = appendPad(b, idText(f.ID), 7)
	b = append(b, ' ')
	b = appendPad(b, termtext.Escape(f.Method), 20)
	b = append(b, ' ')
	b = appendPadLeft(b, strconv.Itoa(f.Size), 6)
	if f.Call >= 0 {
		b = append(b, "  call "...)
		b = strconv.AppendInt(b, int64(f.Call), 10)
	}
	if r := f.Record; r != nil && r.HTTP != nil && f.Kind == store.KindHTTPStatus {
		b = appendHTTPStatus(b, r)
	}
	if f.Problem != "" {
		b = append(b, "  ! "...)
		b = termtext.Append(b, f.Problem)
		if r := f.Record; r != nil && f.Kind == store.KindInvalid && r.Text != "" {
			b = append(b, ": "...)
			b = append(b, quoteShort(r.Text, 48)...)
		}
	}
	if w.layout.Width > 0 {
		// The problem's quote is what a long line cuts; the columns before it fit 80.
		b = append(b[:0], termtable.Cut(string(b), w.layout.Width)...)
	}
	b = append(b, '\n')
	w.buf = b
	w.frames.add(w, b)
}

// Finish writes the report from s (session, summary, operations, ledger,
// findings, calls, catalog), then the server's stderr lines and the
// frames from the spools, and flushes. Call Close to release the spools.
func (w *Writer) Finish(s *store.Snapshot) error {
	if w.err != nil {
		return fmt.Errorf("writing text export: %w", w.err)
	}
	fmt.Fprintln(w.out, w.title)
	a := w.auth
	if a == nil {
		a = &oauth.Auth{}
	}
	writeReport(w.out, s, a, w.layout)
	if err := w.writeStderr(); err != nil {
		return fmt.Errorf("writing text export: %w", err)
	}
	if err := w.writeFrames(); err != nil {
		return fmt.Errorf("writing text export: %w", err)
	}
	if err := w.out.Flush(); err != nil {
		return fmt.Errorf("writing text export: %w", err)
	}
	return nil
}

// writeFrames writes the frames section from its spool.
func (w *Writer) writeFrames() error {
	if w.frames.n == 0 {
		_, err := w.out.WriteString("\nframes: none\n")
		return err
	}
	fmt.Fprintf(w.out, "\nframes\n  %-5s %-9s %-3s %-12s %-7s %-20s %6s  %s\n", "SEQ", "TIME", "DIR", "KIND", "ID", "METHOD", "SIZE", "CALL / !")
	return w.frames.writeTo(w.out)
}

// Close releases the spools. It is safe to call more than once.
func (w *Writer) Close() error {
	return errors.Join(w.frames.remove(), w.stderr.remove())
}

// Summary writes the export of s without its frames: title, session,
// operations, calls, summary and findings.
func Summary(w io.Writer, s *store.Snapshot) error {
	return SummaryLayout(w, s, Layout{})
}

// writeReport writes the export's sections in the order a reader wants
// them: what happened and what is wrong first, the long tables after.
// Write errors surface at the caller's Flush.
func writeReport(w *bufio.Writer, s *store.Snapshot, a *oauth.Auth, l Layout) {
	writeSession(w, s, l.Width)
	writeSummary(w, s, l)
	writeOperations(w, s, l.Width)
	writeLedger(w, s, l)
	writeApps(w, s)
	writeAuth(w, a, s.Session.Start, l)
	writeFindings(w, s, l)
	writeCalls(w, s, l)
	writeCatalog(w, s, l)
	writeReads(w, s.Catalog)
}

// writeBody writes the sections of Summary. Write errors surface at the
// caller's Flush.
func writeBody(w *bufio.Writer, s *store.Snapshot, l Layout) {
	writeSession(w, s, l.Width)
	writeOperations(w, s, l.Width)
	writeCalls(w, s, l)
	writeLedger(w, s, l)
	writeApps(w, s)
	writeCatalog(w, s, l)
	writeReads(w, s.Catalog)
	writeSummary(w, s, l)
	writeFindings(w, s, l)
}

func msBetween(a, b time.Time) float64 {
	if a.IsZero() || b.IsZero() {
		return 0
	}
	return float64(b.Sub(a)) / float64(time.Millisecond)
}

// FormatMS renders a duration in milliseconds as every table of the text
// export does, through units.Millis: "0.42ms", "920.0ms", "2.84s".
func FormatMS(ms float64) string { return units.Millis(ms) }

// formatMS is units.Millis, the export's one duration format.
func formatMS(ms float64) string { return units.Millis(ms) }

// offset is the time of t inside the session that started at start:
// "+2.49s" (units.Offset).
func offset(start, t time.Time) string {
	if start.IsZero() || t.IsZero() {
		return units.Offset(0)
	}
	return units.Offset(t.Sub(start))
}

// idText shows an id as its JSON token; a string id whose token holds an
// escape or a character termtext would escape is shown Go-quoted instead,
// so that its escapes are not escaped twice.
func idText(id wire.ID) string {
	raw := id.Raw()
	switch {
	case raw == "":
		return "-"
	case !strings.Contains(raw, `\`) && termtext.Escape(raw) == raw:
		return raw
	case id.IsString():
		if s, ok := jsonraw.String([]byte(raw)); ok {
			return strconv.Quote(s)
		}
	}
	return termtext.Escape(raw)
}

func quoteShort(s string, max int) string {
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

func appendPad(b []byte, s string, width int) []byte {
	b = append(b, s...)
	if n := width - len(s); n > 0 {
		b = append(b, strings.Repeat(" ", n)...)
	}
	return b
}

func appendPadLeft(b []byte, s string, width int) []byte {
	if n := width - len(s); n > 0 {
		b = append(b, strings.Repeat(" ", n)...)
	}
	return append(b, s...)
}

// appendHTTPStatus names what an HTTP status frame stands for: the status
// of an answer ("HTTP 401") with its WWW-Authenticate challenge and the
// start of its body, the method and path of a request.
func appendHTTPStatus(b []byte, r *capture.Record) []byte {
	h := r.HTTP
	b = append(b, "  HTTP "...)
	if h.Status == 0 {
		return termtext.Append(append(termtext.Append(b, h.Method), ' '), h.Path)
	}
	b = strconv.AppendInt(b, int64(h.Status), 10)
	if a := h.Headers["WWW-Authenticate"]; a != "" {
		b = termtext.Append(append(b, "  WWW-Authenticate: "...), a)
	}
	body := r.Text
	if len(r.Msg) > 0 {
		body = string(r.Msg)
	}
	if body != "" {
		b = append(append(b, "  "...), quoteShort(body, 48)...)
	}
	return b
}
