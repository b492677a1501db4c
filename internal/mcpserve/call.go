package mcpserve

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// callArgs name one request of a session by its index (the calls tool's
// call member).
type callArgs struct {
	Session string `json:"session"`
	Call    *int   `json:"call"`
	Cursor  string `json:"cursor"`
}

// frameRow is one frame of a call: where it is in the capture and what
// it said, its message as JSON (strings cut with their size), its text
// when it is not JSON.
type frameRow struct {
	Seq  uint64    `json:"seq"`
	Line int       `json:"line"`
	Dir  string    `json:"dir"`
	Time time.Time `json:"time"`
	Size int       `json:"size"`
	// URI is the frame's resource (FrameURI): the frame whole, where
	// Msg's long strings are cut.
	URI string `json:"uri"`
	// Msg is the message; nil for a frame that is not JSON.
	Msg  jsontext.Value `json:"msg,omitempty"`
	Text string         `json:"text,omitempty"`
	// Answers counts the elicitation answers the frame carries, whose
	// values are replaced (never a submitted value).
	Answers int `json:"answers,omitempty"`
}

// callFrames answers one request's frames (its request, its answer, a
// notifications/cancelled naming it), read as configured and with every
// elicitation answer's values replaced whatever the configuration says.
func (s *Server) callFrames(raw []byte) (*page, error) {
	var a callArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	if a.Call == nil {
		return nil, fmt.Errorf("call: want the call index the calls tool gives")
	}
	want := *a.Call
	frames, snap, err := s.frames(a.Session, func(f *store.Frame) bool { return f.Call == want })
	if err != nil {
		return nil, err
	}
	if want < 0 || want >= snap.Calls.Len() {
		return nil, fmt.Errorf("no call %d in session %s: it has calls 0 to %d (the calls tool lists them)", want, snap.Session.ID, snap.Calls.Len()-1)
	}
	c := snap.Calls.At(want)
	head := struct {
		SessionID string   `json:"session_id"`
		Call      callLine `json:"call"`
	}{snap.Session.ID, lineOf(&c, nil)}
	start, err := cursor(a.Cursor, len(frames))
	if err != nil {
		return nil, err
	}
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(&head, limit) },
		text: func(limit int) string { return head.Call.line(limit) + "\n" },
		list: &list{name: "frames", n: len(frames),
			item: func(i, limit int) ([]byte, error) { return marshal(&frames[i], limit) },
			line: func(i, limit int) string { return frames[i].text(limit) },
		},
		start: start,
	}, nil
}

// frames reads the session arg names and returns the rows of the frames
// keep selects, in capture order, each with the values of an elicitation
// answer replaced whatever the redaction says unless the operator asked
// for them (Options.RevealAnswers) (the answers redactor
// sees a copy of every frame in order, so it knows which responses answer
// an elicitation/create; the rules still read the frame as it is).
func (s *Server) frames(arg string, keep func(*store.Frame) bool) ([]frameRow, *store.Snapshot, error) {
	answers, err := redact.New(&redact.Options{Answers: true})
	if err != nil {
		return nil, nil, err
	}
	var rows []frameRow
	onFrame := func(f *store.Frame) {
		rec := *f.Record
		rec.Msg, rec.Raw = slices.Clone(rec.Msg), ""
		if !s.opts.RevealAnswers {
			answers.Record(&rec)
		}
		if keep(f) {
			rows = append(rows, rowOfFrame(f, &rec))
		}
	}
	snap, err := s.loadWith(arg, onFrame)
	if err != nil {
		return nil, nil, err
	}
	for i := range rows {
		rows[i].Line = snap.Line(rows[i].Seq)
		rows[i].URI = FrameURI(snap.Session.ID, rows[i].Seq)
	}
	return rows, snap, nil
}

// rowOfFrame copies what f says, its record r (f's record is valid only
// during the callback).
func rowOfFrame(f *store.Frame, r *capture.Record) frameRow {
	row := frameRow{Seq: f.Seq, Dir: string(f.Dir), Time: f.Time.UTC(), Size: f.Size, Answers: len(f.Answers)}
	switch {
	case len(r.Msg) > 0:
		row.Msg = r.Msg
	case r.Text != "":
		row.Text = r.Text
	case len(r.B64) > 0:
		row.Text = fmt.Sprintf("(%d bytes that are not UTF-8)", len(r.B64))
	}
	return row
}

// text is the frame's heading line and its message pretty-printed, each
// string cut to limit bytes and escaped for a terminal.
func (r *frameRow) text(limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s line %d %s, %d bytes", r.Seq, r.Dir, r.Line, r.Time.Format(time.RFC3339Nano), r.Size)
	if r.Answers > 0 {
		fmt.Fprintf(&b, " (answers %s; their values are replaced)", plural(r.Answers, "question"))
	}
	b.WriteString("\n")
	if r.Text != "" {
		b.WriteString("  " + show(r.Text, limit) + "\n")
	}
	if len(r.Msg) > 0 {
		clipped, err := clip(r.Msg, limit)
		if err == nil {
			v := jsontext.Value(clipped)
			if v.Indent(jsontext.WithIndentPrefix("  "), jsontext.WithIndent("  ")) == nil {
				b.WriteString("  " + escapeLines(string(v)) + "\n")
			}
		}
	}
	return b.String()
}

// escapeLines escapes each line of s for a terminal, keeping the newlines
// of the indentation.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termtext.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// loadWith is load with onFrame called for every frame, after redaction.
func (s *Server) loadWith(arg string, onFrame func(*store.Frame)) (*store.Snapshot, error) {
	r, f, err := s.open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if s.opts.Redactor != nil {
		s.opts.Redactor.Reset()
	}
	sess, err := session.Load(r, &session.Options{Rules: s.rules(), Redactor: s.opts.Redactor, OnFrame: onFrame})
	if err != nil {
		return nil, fmt.Errorf("reading session %q: %w", arg, err)
	}
	return sess.Snapshot, nil
}
