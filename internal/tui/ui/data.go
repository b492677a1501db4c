package ui

import (
	"strconv"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// Data is what a session screen shows: the store's snapshot and the
// records the store does not keep as calls (notifications, stderr lines,
// notes). A Data and everything it points to is immutable; a newer one
// replaces it as the capture grows.
type Data struct {
	// Snap is the session's correlated state; never nil in a DataMsg.
	Snap *store.Snapshot
	// Lines holds the notifications, stderr lines and notes in seq/file
	// order. The source only appends: an older Data's Lines stays valid.
	Lines []Line
	// Live is set while the capture is still growing (no end record yet).
	Live bool
	// Loading is set until the source's first read reached the end of
	// the capture: the counts are then provisional (a call shown pending
	// may have its response further on), and views say so.
	Loading bool
	// Path is the capture file, "" when read from standard input.
	Path string
	// Gen increases with every new Data of a session.
	Gen uint64
	// Redact, when non-nil, scrubs a frame read back from the capture the
	// way the source scrubbed what the store saw (the --redact-* flags):
	// Frame applies it.
	Redact func(*capture.Record)
}

// Frame reads the frame record seq back from the capture (Snap.Frame),
// redacted as the rest of the Data is. It does I/O: call it from a
// tea.Cmd, never from Update or View.
func (d Data) Frame(seq uint64) (capture.Record, error) {
	rec, err := d.Snap.Frame(seq)
	if err == nil && d.Redact != nil {
		d.Redact(&rec)
	}
	return rec, err
}

// LineKind says what a Line is.
type LineKind uint8

// The kinds of Line.
const (
	LineNotification LineKind = iota + 1
	LineStderr
	LineNote
)

// Line is a stream row that is not a call: a notification, a line the
// server wrote on stderr, or a note of mcptrail's.
type Line struct {
	Kind LineKind
	// Seq is the frame's seq (notifications); for stderr lines and notes,
	// the seq of the last frame before them (0 if none).
	Seq  uint64
	Time time.Time
	Dir  capture.Dir
	// Method is the notification's method; Note the note's kind.
	Method string
	Note   string
	// Text is the stderr line or the note's text, cut to at most
	// MaxLineText bytes (the capture keeps all of it).
	Text string
	// Call is the call the notification concerns (notifications/cancelled,
	// notifications/progress of a known call), or -1.
	Call int
	// Line is the record's 1-based line in the capture file (0 unknown).
	Line int
}

// MaxLineText bounds Line.Text.
const MaxLineText = 4096

// LoadingText says how far the first read of a capture has gone, for a
// view to show instead of counts that are not final yet: "loading…
// 41,200 frames". It is "" once d is not Loading.
func (d Data) LoadingText() string {
	if !d.Loading || d.Snap == nil {
		return ""
	}
	return "loading… " + Thousands(d.Snap.Counts.Frames) + " frames"
}

// Thousands writes n with a comma between groups of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
