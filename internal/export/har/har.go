// Package harexport renders a session as an HTTP Archive (HAR 1.2, the
// mapping is documented in docs/export-har.md) that opens in browser
// devtools and HAR viewers. An HTTP capture gives one entry per HTTP
// exchange (its request and response headers as captured, so already
// redacted, its bodies and its status); a stdio capture gives one entry
// per call, under a pseudo-URL mcp+stdio://LABEL/METHOD/TARGET. It is a
// view: it reads store frames and snapshots and never re-parses or
// correlates.
//
// A Writer is fed every frame the store ingests (Frame is made to be
// store.Options.OnFrame), keeping the bodies it needs, then Finish writes
// the archive. A Writer is not safe for concurrent use.
package harexport

import (
	"encoding/base64"
	"fmt"
	"io"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Version is the HAR version written.
const Version = "1.2"

// Writer collects what the archive needs from the frames and writes it on
// Finish.
type Writer struct {
	w       io.Writer
	version string // the creator's version
	http    *exchanges
	stdio   map[uint64]body // stdio: request and response frames by seq
}

// New returns a Writer of the session whose header record is h onto w;
// version is mcptrail's, written as the archive's creator version.
func New(w io.Writer, h *capture.Record, version string) *Writer {
	hw := &Writer{w: w, version: version}
	if h != nil && h.Transport == "http" {
		hw.http = newExchanges()
	} else {
		hw.stdio = make(map[uint64]body)
	}
	return hw
}

// body is the bytes of one frame as the archive shows them.
type body struct {
	text   string
	base64 bool // text is the base64 of bytes that are not UTF-8
}

// recordBody returns the frame bytes of r: the line as received (Raw)
// when it differs from Msg, else Msg, the text, or the base64 of bytes
// that are not UTF-8.
func recordBody(r *capture.Record) body {
	switch {
	case r == nil:
		return body{}
	case r.Raw != "":
		return body{text: r.Raw}
	case len(r.Msg) > 0:
		return body{text: string(r.Msg)}
	case r.B64 != nil:
		return body{text: base64.StdEncoding.EncodeToString(r.B64), base64: true}
	}
	return body{text: r.Text}
}

// Frame records what the archive needs of f (it is made to be
// store.Options.OnFrame).
func (hw *Writer) Frame(f *store.Frame) {
	if hw.http != nil {
		hw.http.frame(f)
		return
	}
	switch f.Kind {
	case store.KindRequest, store.KindResponse, store.KindError, store.KindBatch:
		hw.stdio[f.Seq] = recordBody(f.Record)
	}
}

// Finish writes the archive of snap.
func (hw *Writer) Finish(snap *store.Snapshot) error {
	var entries []entry
	if hw.http != nil {
		entries = inOrder(append(hw.http.entries(snap.Session.Target), exchangeEntries(snap)...))
	} else {
		entries = hw.stdioEntries(snap)
	}
	doc := archive{Log: harLog{
		Version: Version,
		Creator: creator{Name: "mcptrail", Version: hw.version},
		Pages:   []struct{}{},
		Entries: entries,
		Comment: comment(snap),
	}}
	if err := json.MarshalWrite(hw.w, &doc, jsontext.WithIndent("  ")); err != nil {
		return fmt.Errorf("writing HAR: %w", err)
	}
	if _, err := io.WriteString(hw.w, "\n"); err != nil {
		return fmt.Errorf("writing HAR: %w", err)
	}
	return nil
}

// comment names the session in the log's comment.
func comment(snap *store.Snapshot) string {
	s := "mcptrail session " + snap.Session.ID
	if snap.Session.Label != "" {
		s += " (" + snap.Session.Label + ")"
	}
	if snap.Session.Transport != "" {
		s += ", " + snap.Session.Transport
	}
	if snap.Session.Redacted {
		s += ", redacted"
	}
	return s
}

// harTime formats t as HAR wants it (ISO 8601 with milliseconds); the zero
// time, unknown, is the Unix epoch.
func harTime(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// ms returns the milliseconds from a to b, never below zero.
func ms(a, b time.Time) float64 {
	if a.IsZero() || b.IsZero() || b.Before(a) {
		return 0
	}
	return float64(b.Sub(a).Microseconds()) / 1000
}
