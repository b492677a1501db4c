// Package textexport renders a session as a readable text dump: a title,
// the frames one per line, then the session's details, its calls, its MRTR
// operations with their rounds, the elicitation ledger and the catalog
// (each only when there is one), a per-method and per-tool summary with
// latency percentiles, and the findings. It is a view: it reads store
// frames and snapshots and never re-parses or correlates. Its output may
// reach a terminal, so every string that came from the capture passes
// termtext.Escape (or strconv.Quote) on its way out.
//
// A Writer streams frames as the store ingests them (Frame is made to be
// store.Options.OnFrame) and writes the rest from the final snapshot in
// Finish. Summary writes the same document without the frames. Neither is
// safe for concurrent use.
package textexport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Writer streams a text export.
type Writer struct {
	out    *bufio.Writer
	start  time.Time
	title  string
	frames int
	buf    []byte
	err    error
	layout Layout // how the tables fit (layout.go)
}

// New returns a Writer for the capture whose session record is h.
func New(w io.Writer, h *capture.Record) *Writer {
	return &Writer{out: bufio.NewWriterSize(w, 64<<10), start: h.Time, title: title(h.SessionID, h.Label)}
}

func title(id, label string) string {
	if label == "" {
		return "mcptrail session " + termtext.Escape(id)
	}
	return fmt.Sprintf("mcptrail session %s (%s)", termtext.Escape(id), termtext.Escape(label))
}

// Frame writes one frame line. It matches store.Options.OnFrame; errors
// are sticky and reported by Finish.
func (w *Writer) Frame(f *store.Frame) {
	if w.err != nil {
		return
	}
	if w.frames == 0 {
		w.printf("%s\n\nframes\n  %-6s %-12s %-4s %-12s %-8s %-28s %8s  %s\n", w.title, "SEQ", "TIME", "DIR", "KIND", "ID", "METHOD", "SIZE", "CALL / PROBLEM")
	}
	w.frames++
	b := append(w.buf[:0], "  #"...)
	b = appendPad(b, strconv.FormatUint(f.Seq, 10), 5)
	b = append(b, ' ')
	b = appendPad(b, "+"+formatMS(msBetween(w.start, f.Time)), 12)
	b = append(b, ' ')
	b = appendPad(b, termtext.Escape(string(f.Dir)), 4)
	b = append(b, ' ')
	b = appendPad(b, f.Kind.String(), 12)
	b = append(b, ' ')
	b = appendPad(b, idText(f.ID), 8)
	b = append(b, ' ')
	b = appendPad(b, termtext.Escape(f.Method), 28)
	b = append(b, ' ')
	b = appendPadLeft(b, strconv.Itoa(f.Size), 8)
	if f.Call >= 0 {
		b = append(b, "  call "...)
		b = strconv.AppendInt(b, int64(f.Call), 10)
	}
	if r := f.Record; r != nil && r.HTTP != nil && f.Kind == store.KindHTTPStatus {
		b = appendHTTPStatus(b, r.HTTP)
	}
	if f.Problem != "" {
		b = append(b, "  ! "...)
		b = termtext.Append(b, f.Problem)
		if r := f.Record; r != nil && f.Kind == store.KindInvalid && r.Text != "" {
			b = append(b, ": "...)
			b = append(b, quoteShort(r.Text, 48)...)
		}
	}
	b = append(b, '\n')
	w.buf = b
	if _, err := w.out.Write(b); err != nil {
		w.err = err
	}
}

// Finish writes everything after the frames from s and flushes.
func (w *Writer) Finish(s *store.Snapshot) error {
	if w.frames == 0 {
		w.printf("%s\n\nframes: none\n", w.title)
	}
	if w.err != nil {
		return fmt.Errorf("writing text export: %w", w.err)
	}
	writeBody(w.out, s, true, w.layout)
	if err := w.out.Flush(); err != nil {
		return fmt.Errorf("writing text export: %w", err)
	}
	return nil
}

// Summary writes the export of s without its frames: title, session,
// operations, calls, summary and findings.
func Summary(w io.Writer, s *store.Snapshot) error {
	return SummaryLayout(w, s, Layout{})
}

func (w *Writer) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.out, format, args...)
	}
}

// writeBody writes the sections after the frames. Write errors surface at
// the caller's Flush.
func writeBody(w *bufio.Writer, s *store.Snapshot, callsFirst bool, l Layout) {
	writeSession(w, s)
	if callsFirst {
		writeCalls(w, s, l)
		writeOperations(w, s)
	} else {
		writeOperations(w, s)
		writeCalls(w, s, l)
	}
	writeLedger(w, s, l)
	writeCatalog(w, s, l)
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
// export does: "0.042ms", "920.0ms", "2.840s".
func FormatMS(ms float64) string { return formatMS(ms) }

// formatMS renders a duration in milliseconds: "0.042ms", "920.0ms",
// "2.840s".
func formatMS(ms float64) string {
	switch {
	case ms == 0:
		return "0ms"
	case ms < 0:
		return "-" + formatMS(-ms)
	case ms < 1:
		return strconv.FormatFloat(ms, 'f', 3, 64) + "ms"
	case ms < 1000:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(ms/1000, 'f', 3, 64) + "s"
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
// of an answer ("HTTP 401"), the method and path of a request.
func appendHTTPStatus(b []byte, h *capture.HTTP) []byte {
	b = append(b, "  HTTP "...)
	if h.Status != 0 {
		return strconv.AppendInt(b, int64(h.Status), 10)
	}
	return termtext.Append(append(termtext.Append(b, h.Method), ' '), h.Path)
}
