package stdio

import "github.com/mcptrail/mcptrail/internal/capture"

// Redactor rewrites capture records before they are written
// (internal/redact implements it). The capture goroutine is its only
// caller, so it may keep per-session state.
type Redactor interface {
	// Record redacts a session, note or end record in place and reports
	// whether it changed it.
	Record(*capture.Record) bool
	// Line returns a frame or stderr line (without its newline) as it is
	// to be recorded, and whether that differs from line. It must not
	// modify line, which the capture goroutine still owns.
	Line(t capture.Type, dir capture.Dir, line []byte) ([]byte, bool)
}

// writeLine writes one frame or stderr line, through the Redactor when
// there is one: a line it changed is recorded with its original size and
// marked redacted.
func (r *recorder) writeLine(t capture.Type, seq uint64, it *item, line []byte, noEOL bool) error {
	dir := it.stream.dir()
	if r.redact != nil {
		if out, changed := r.redact.Line(t, dir, line); changed {
			return r.w.WriteRedactedLine(t, seq, it.at, dir, out, len(line), noEOL, "", nil)
		}
	}
	return r.w.WriteLine(t, seq, it.at, dir, line, noEOL, "", nil)
}
