package stdio

import "github.com/mcptrail/mcptrail/internal/capture"

// writeLine writes one frame or stderr line, through the Redactor when
// there is one, and hands what it wrote to the feed. A JSON frame none of
// whose member names the Redactor's filter selects is written as it is,
// found so in the pass that validates it; any other line goes through
// Line, and a line it changed is recorded with its original size and
// marked redacted.
func (r *recorder) writeLine(t capture.Type, seq uint64, it *item, line []byte, noEOL bool) error {
	l := capture.Line{Type: t, Seq: seq, Time: it.at, Dir: it.stream.dir(), Bytes: line, NoEOL: noEOL}
	var rec *capture.Record // filled for the feed while the line is encoded
	var posLine int         // where the record goes, for the feed
	var posOffset int64
	if r.out.Live() {
		rec = &r.rec
		posLine, posOffset = r.w.Pos()
	}
	if r.redact != nil {
		if f := r.redact.Names(l.Dir); f != nil && t == capture.TypeFrame {
			done, err := r.w.AppendUnselected(&l, f, rec)
			if done && rec != nil {
				rec.Line, rec.Offset = posLine, posOffset
				r.out.Publish(rec)
			}
			if done || err != nil {
				return err
			}
		}
		if out, changed := r.redact.Line(t, l.Dir, line); changed {
			l.Bytes, l.Size, l.Redacted = out, len(line), true
		}
	}
	err := r.w.AppendDecoded(&l, rec)
	if err == nil && rec != nil {
		rec.Line, rec.Offset = posLine, posOffset
		r.out.Publish(rec)
	}
	return err
}

// writeSpooled is writeLine for a line held in a spool: streamed from its
// file when nothing is to be redacted in it (no Redactor, or a JSON frame
// none of whose member names the filter selects) and no consumer needs it
// in memory; otherwise this one line is read back into memory. A consumer
// with a capture file reads a streamed line from the file (feed.Skip).
func (r *recorder) writeSpooled(t capture.Type, seq uint64, it *item, sp *capture.Spool, noEOL bool) error {
	dir := it.stream.dir()
	if !r.out.LiveOnly() && (r.redact == nil || t == capture.TypeFrame && r.redact.Names(dir) != nil && !sp.Selected()) {
		err := r.w.AppendSpooled(&capture.Line{Type: t, Seq: seq, Time: it.at, Dir: dir, NoEOL: noEOL}, sp)
		if err == nil {
			r.out.Skip()
		}
		return err
	}
	line, err := sp.Bytes()
	if err != nil {
		return err
	}
	return r.writeLine(t, seq, it, line, noEOL)
}
