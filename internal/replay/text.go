package replay

import (
	"fmt"
	"io"
	"strings"

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
		fmt.Fprintf(&b, "send  call %-3d %s%s\n", st.Call, name, stepNotes(&st))
	}
	fmt.Fprintf(&b, "%d of %d recorded client calls would be sent", p.Sent(), len(p.Steps))
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
	case SkipDestructive:
		return "the tool is annotated destructiveHint: true (pass --allow-destructive to send it)"
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

// WriteSkipped writes one line per skipped step that the user chose to
// skip or should know about (destructive calls, calls the recording never
// finished); nothing when none was.
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

// WriteText writes the questions the recording had no answer for, one a
// line; nothing when there were none.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, q := range r.Unanswered {
		what := termtext.Escape(q.Asked)
		if q.Key != "" {
			what += fmt.Sprintf(" (inputRequests key %q)", termtext.Escape(q.Key))
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
