package replay

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// WriteText writes the plan as the lines --dry-run prints: each recorded
// client call, sent or skipped (and why), then a count.
func (p *Plan) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, st := range p.Steps {
		name := termtext.Escape(describe(st.Method, st.Target))
		if st.Skip != "" {
			fmt.Fprintf(&b, "skip  call %-3d %s: %s\n", st.Call, name, skipText(st.Skip))
			continue
		}
		if v, gated := p.recordedVerdict(&st); gated {
			fmt.Fprintf(&b, "skip  call %-3d %s: %s; the server's own tools/list decides when replaying%s\n",
				st.Call, name, verdictText(v), allowHint)
			continue
		}
		fmt.Fprintf(&b, "send  call %-3d %s%s\n", st.Call, name, stepNotes(&st))
	}
	fmt.Fprintf(&b, "%d of %d recorded client calls would be sent", p.wouldSend(), len(p.Steps))
	if p.Era != "" {
		fmt.Fprintf(&b, " (%s era)", p.Era)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// stepNotes says what answering the server during a step will take.
func stepNotes(st *Step) string {
	var notes []string
	if n := len(st.Retries); n > 0 {
		notes = append(notes, plural(n, "MRTR retry", "MRTR retries")+" with the recorded inputResponses")
	}
	if st.Abandoned {
		notes = append(notes, "the recording stopped at an input_required result")
	}
	if n := len(st.Answers); n > 0 {
		notes = append(notes, plural(n, "recorded answer", "recorded answers")+" to server requests")
	}
	if len(notes) == 0 {
		return ""
	}
	return "  (" + strings.Join(notes, "; ") + ")"
}

// skipText explains a skip reason to the user.
func skipText(reason string) string {
	switch reason {
	case SkipOnly:
		return "not selected by --only"
	case SkipUnanswered:
		return "never answered in the recording"
	case SkipCancelled:
		return "cancelled in the recording"
	case SkipUnreadable:
		return "its frame cannot be read back from the capture"
	}
	return reason
}

// WriteSkipped writes one line per skipped step that the user should know
// about (calls the recording never finished or cancelled, or whose frame
// is unreadable; not those --only left out); nothing when none was. The
// calls skipped as destructive are judged while replaying: Result.WriteText
// lists them.
func (p *Plan) WriteSkipped(w io.Writer) error {
	var b strings.Builder
	for _, st := range p.Steps {
		if st.Skip == "" || st.Skip == SkipOnly {
			continue
		}
		fmt.Fprintf(&b, "skipped call %d %s: %s\n", st.Call, termtext.Escape(describe(st.Method, st.Target)), skipText(st.Skip))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// allowHint ends the line of a call skipped as destructive.
const allowHint = " (pass --allow-destructive to send it)"

// verdictText says why a tool may be destructive, and whose listing says
// so.
func verdictText(v verdict) string {
	var why string
	switch v.hint {
	case mcp.DestructiveDeclared:
		why = "annotates the tool destructiveHint: true"
	default:
		why = "gives the tool no readOnlyHint: true or destructiveHint: false, so MCP assumes it destructive"
	}
	switch {
	case v.from == FromServer:
		return "the server's tools/list " + why
	case v.from == FromCapture && v.unlisted:
		return "the server's tools/list does not list the tool, and the capture's " + why
	case v.from == FromCapture:
		return "the capture's tools/list " + why
	case v.unlisted:
		return "neither the server's tools/list nor the capture's lists the tool, so MCP assumes it destructive"
	}
	return "the capture's tools/list does not list the tool, so MCP assumes it destructive"
}

// WriteText writes the calls skipped because their tool may be
// destructive, then the questions the recording had no answer for, one a
// line; nothing when there were none.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped call %d %s: %s%s\n", s.Call, termtext.Escape(describe(s.Method, s.Target)),
			verdictText(verdict{hint: s.Hint, from: s.From, unlisted: s.Unlisted}), allowHint)
	}
	for _, q := range r.Unanswered {
		what := termtext.Escape(q.Asked)
		if q.Key != "" {
			what += fmt.Sprintf(" (inputRequests key %q)", termtext.Escape(q.Key))
		}
		if q.Call < 0 {
			fmt.Fprintf(&b, "unanswered: after the last call the server asked %s, which the recording has no answer for; %s\n", what, refusal(q.Asked))
			continue
		}
		fmt.Fprintf(&b, "unanswered: call %d %s: the server asked %s, which the recording has no answer for; %s\n",
			q.Call, termtext.Escape(describe(q.Method, q.Target)), what, refusal(q.Asked))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func refusal(asked string) string {
	if asked == "elicitation/create" {
		return "replay cancelled it"
	}
	return "replay refused it"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
