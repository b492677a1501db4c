package source

import (
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// ingester turns one session's records into Data: it redacts each record,
// feeds the store and collects the Lines. It belongs to the session's
// goroutine, except redact, which Data.Redact calls from anywhere.
type ingester struct {
	st    *store.Store
	red   redact.Redactor
	redMu sync.Mutex // guards red, shared with Data.Redact
	// lines only grows: a Data holds lines[:n:n], which later appends
	// never touch.
	lines     []ui.Line
	lastFrame uint64 // seq of the last frame ingested
	path      string
	gen       uint64
	dirty     bool // records were ingested since the last Data
	// caughtUp is set once the reader reached the end of the capture (the
	// Follower's first Idle): Data before it is Loading.
	caughtUp bool

	first, every time.Duration
	next         time.Time // when the next Data is due while ingesting
	last         time.Time // when the last Data was made
	count        int       // records since the clock was last read
}

// newIngester returns an ingester whose store reads frames back from src
// (nil: keep them, for a capture without a file).
func newIngester(opts *Options, src io.ReaderAt, path string) *ingester {
	in := &ingester{red: opts.Redactor, path: path, first: DefaultFirst, every: opts.interval()}
	in.first = min(in.first, in.every)
	in.st = session.NewStore(&session.Options{
		Rules:  opts.Rules,
		Source: src, KeepFrames: src == nil,
		OnFrame: in.onFrame,
	})
	return in
}

// start ingests the session record (a copy: the reader's stays as read)
// and starts the clock of the first Data.
func (in *ingester) start(h *capture.Record, now time.Time) {
	hc := *h
	if in.red != nil {
		in.redMu.Lock()
		in.red.Reset()
		in.red.Record(&hc)
		in.redMu.Unlock()
	}
	in.st.Ingest(&hc)
	in.dirty = true
	in.next = now.Add(in.first)
}

// add redacts and ingests one record.
func (in *ingester) add(rec *capture.Record) {
	in.redact(rec)
	switch rec.Type {
	case capture.TypeStderr:
		in.line(ui.Line{Kind: ui.LineStderr, Text: cut(rec.Bytes())}, rec)
	case capture.TypeNote:
		in.line(ui.Line{Kind: ui.LineNote, Note: rec.Note, Text: cut([]byte(rec.Text))}, rec)
	}
	in.st.Ingest(rec)
	if rec.Type == capture.TypeFrame {
		in.lastFrame = rec.Seq
	}
	in.dirty = true
	in.count++
}

// redact scrubs rec with the Redactor, if any. It is Data.Redact.
func (in *ingester) redact(rec *capture.Record) {
	if in.red == nil {
		return
	}
	in.redMu.Lock()
	in.red.Record(rec)
	in.redMu.Unlock()
}

// line appends a stderr line or a note.
func (in *ingester) line(l ui.Line, rec *capture.Record) {
	l.Seq, l.Time, l.Line, l.Call = in.lastFrame, rec.Time, rec.Line, -1
	in.lines = append(in.lines, l)
}

// onFrame is the store's OnFrame: a notification becomes a Line.
func (in *ingester) onFrame(f *store.Frame) {
	if f.Kind != store.KindNotification {
		return
	}
	in.lines = append(in.lines, ui.Line{
		Kind: ui.LineNotification, Seq: f.Seq, Time: f.Time, Dir: f.Dir,
		Method: f.Method, Call: f.Call, Line: f.Record.Line,
	})
}

// due reports whether a Data is due while ingesting: the clock is read
// once every 64 records.
func (in *ingester) due() bool {
	if in.count < 64 {
		return false
	}
	in.count = 0
	return !time.Now().Before(in.next)
}

// idleDue reports whether a Data is due when the reader caught up with
// the writer: something is new, and the last Data is not too recent
// (DefaultFirst), so a trickling writer does not flood the screens.
func (in *ingester) idleDue(now time.Time) bool {
	return in.dirty && now.Sub(in.last) >= in.first
}

// data returns a Data of what was ingested so far, with the damage the
// reader reported, and restarts the clock.
func (in *ingester) data(live bool, dmg capture.Damage) ui.Data {
	in.st.SetDamage(dmg)
	now := time.Now()
	in.next, in.last, in.dirty = now.Add(in.every), now, false
	return in.wrap(in.st.Snapshot(), live)
}

// final returns the last Data: the store is handed over, not copied, and
// must not be used afterwards.
func (in *ingester) final(dmg capture.Damage) ui.Data {
	in.st.SetDamage(dmg)
	in.dirty = false
	snap := in.st.Final()
	in.st = nil // Data.Redact keeps the ingester: let the store go
	in.caughtUp = true
	return in.wrap(snap, false)
}

func (in *ingester) wrap(snap *store.Snapshot, live bool) ui.Data {
	in.gen++
	n := len(in.lines)
	d := ui.Data{Snap: snap, Lines: in.lines[:n:n], Live: live, Loading: !in.caughtUp, Path: in.path, Gen: in.gen}
	if in.red != nil {
		d.Redact = in.redact
	}
	return d
}

// cut returns b as a string of at most ui.MaxLineText bytes, not
// splitting a rune.
func cut(b []byte) string {
	if len(b) <= ui.MaxLineText {
		return string(b)
	}
	n := ui.MaxLineText
	for n > ui.MaxLineText-utf8.UTFMax && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n])
}
