package check

import (
	"bufio"
	"fmt"
	"io"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// WriteText writes r for a person: per session, its findings grouped by
// rule (in the order of r.Rules), each with its capture line, seq and
// call; then a summary line that says whether the run failed. Text from
// the capture is escaped for the terminal.
func WriteText(w io.Writer, r *Report) error { return WriteTextColor(w, r, false) }

// WriteTextColor is WriteText with, when color is true, each rule's marker
// and severity coloured by severity and the summary's verdict red (failed)
// or green (passed), in the SGR colours of mcptrail's tables.
func WriteTextColor(w io.Writer, r *Report, color bool) error {
	bw := bufio.NewWriter(w)
	for i := range r.Results {
		writeTextResult(bw, r, &r.Results[i], color)
	}
	fmt.Fprintln(bw, summary(r, color))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

func writeTextResult(w io.Writer, r *Report, res *Result, color bool) {
	fmt.Fprintf(w, "%s: session %s", termtext.Escape(res.Path), termtext.Escape(res.SessionID))
	if res.Label != "" {
		fmt.Fprintf(w, " (%s)", termtext.Escape(res.Label))
	}
	if res.Suppressed > 0 {
		fmt.Fprintf(w, ", %d suppressed by the baseline", res.Suppressed)
	}
	if len(res.Items) == 0 {
		fmt.Fprintln(w, ": "+termtable.Good.Paint("no findings", color))
		return
	}
	fmt.Fprintln(w)
	for _, rule := range r.Rules {
		var items []*Item
		for j := range res.Items {
			if res.Items[j].Rule == rule.ID {
				items = append(items, &res.Items[j])
			}
		}
		if len(items) == 0 {
			continue
		}
		sev := termtable.Severity(string(items[0].Severity))
		fmt.Fprintf(w, "  %s %s (%s)\n", sev.Paint(marker(items[0], r.FailOn), color), rule.ID, sev.Paint(string(items[0].Severity), color))
		for _, it := range items {
			fmt.Fprintf(w, "    %s %s\n", where(it), termtext.Escape(it.Message))
		}
	}
}

// marker flags a rule whose findings fail the run.
func marker(it *Item, failOn finding.Severity) string {
	if it.Failing(failOn) {
		return "✗"
	}
	return "-"
}

// where locates an item: line, seq and call, or the session as a whole.
func where(it *Item) string {
	s := "session"
	if it.Seq != 0 {
		s = fmt.Sprintf("seq %d", it.Seq)
		if it.Line > 0 {
			s = fmt.Sprintf("line %d seq %d", it.Line, it.Seq)
		}
	}
	if it.Call != "" {
		s += " " + termtext.Escape(it.Call)
	}
	return s + ":"
}

// summary is the last line of the text report.
func summary(r *Report, color bool) string {
	counts := map[finding.Severity]int{}
	total, suppressed, failing := 0, 0, 0
	for i := range r.Results {
		suppressed += r.Results[i].Suppressed
		for j := range r.Results[i].Items {
			it := &r.Results[i].Items[j]
			counts[it.Severity]++
			total++
			if it.Failing(r.FailOn) {
				failing++
			}
		}
	}
	s := fmt.Sprintf("%s in %s (%s, %s, %d info)", plural(total, "finding"), plural(len(r.Results), "session"),
		plural(counts[finding.Error], "error"), plural(counts[finding.Warning], "warning"), counts[finding.Info])
	if suppressed > 0 {
		s += fmt.Sprintf(", %d suppressed by the baseline", suppressed)
	}
	if failing > 0 {
		return s + "; " + termtable.Bad.Paint("FAILED", color) + fmt.Sprintf(": %d at or above --fail-on %s", failing, r.FailOn)
	}
	return s + "; " + termtable.Good.Paint("passed", color) + fmt.Sprintf(" (--fail-on %s)", r.FailOn)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
