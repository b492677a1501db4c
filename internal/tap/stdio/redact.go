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
	// Names returns a filter of the member names Line acts on in a frame
	// travelling in dir (a JSON frame holding none of them is one Line
	// leaves as it is), or nil when Line must see every frame.
	Names(dir capture.Dir) *capture.NameFilter
}

// writeLine writes one frame or stderr line, through the Redactor when
// there is one. A JSON frame none of whose member names the Redactor's
// filter selects is written as it is, found so in the pass that validates
// it; any other line goes through Line, and a line it changed is recorded
// with its original size and marked redacted.
func (r *recorder) writeLine(t capture.Type, seq uint64, it *item, line []byte, noEOL bool) error {
	dir := it.stream.dir()
	if r.redact == nil {
		return r.w.WriteLine(t, seq, it.at, dir, line, noEOL, "", nil)
	}
	if f := r.redact.Names(dir); f != nil && t == capture.TypeFrame {
		if done, err := r.w.WriteLineUnselected(t, seq, it.at, dir, line, noEOL, f); done || err != nil {
			return err
		}
	}
	if out, changed := r.redact.Line(t, dir, line); changed {
		return r.w.WriteRedactedLine(t, seq, it.at, dir, out, len(line), noEOL, "", nil)
	}
	return r.w.WriteLine(t, seq, it.at, dir, line, noEOL, "", nil)
}

// writeSpooled is writeLine for a line held in a spool: streamed from its
// file when nothing is to be redacted in it (no Redactor, or a JSON frame
// none of whose member names the filter selects); otherwise the Redactor
// needs the whole line, and this one line is read back into memory.
func (r *recorder) writeSpooled(t capture.Type, seq uint64, it *item, sp *capture.Spool, noEOL bool) error {
	dir := it.stream.dir()
	if r.redact == nil || t == capture.TypeFrame && r.redact.Names(dir) != nil && !sp.Selected() {
		return r.w.WriteSpooled(t, seq, it.at, dir, sp, noEOL, "", nil)
	}
	line, err := sp.Bytes()
	if err != nil {
		return err
	}
	return r.writeLine(t, seq, it, line, noEOL)
}
