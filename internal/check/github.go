package check

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// WriteGitHub writes r as GitHub Actions workflow commands, one per item
// (::error file=PATH,line=N,title=RULE::message; warning and info are
// ::warning and ::notice), then one plain line that counts the findings,
// those that fail the run and those the baseline suppressed.
func WriteGitHub(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	items, failing := 0, 0
	for i := range r.Results {
		res := &r.Results[i]
		for j := range res.Items {
			it := &res.Items[j]
			items++
			if it.Failing(r.FailOn) {
				failing++
			}
			bw.WriteString(githubCommand(res, it))
		}
	}
	fmt.Fprintf(bw, "mcptrail check: %s in %s, %d at or above %s, %d suppressed by the baseline\n",
		plural(items, "finding"), plural(len(r.Results), "session"), failing, r.FailOn, suppressed(r))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing workflow commands: %w", err)
	}
	return nil
}

// githubCommand is the workflow command that annotates it, raised in res.
func githubCommand(res *Result, it *Item) string {
	var props []string
	if res.Path != "-" && res.Path != "" {
		props = append(props, "file="+githubProperty(res.Path))
	}
	if it.Line > 0 {
		props = append(props, fmt.Sprintf("line=%d", it.Line))
	}
	props = append(props, "title="+githubProperty(it.Rule))
	msg := it.Message
	var where []string
	if res.SessionID != "" {
		where = append(where, "session "+res.SessionID)
	}
	where = append(where, fmt.Sprintf("seq %d", it.Seq))
	if it.Call != "" {
		where = append(where, it.Call)
	}
	msg += " (" + strings.Join(where, ", ") + ")"
	return "::" + githubLevel(it.Severity) + " " + strings.Join(props, ",") + "::" + githubData(msg) + "\n"
}

// githubLevel is the workflow command of severity s.
func githubLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Warning:
		return "warning"
	}
	return "notice"
}

// githubData escapes s as a workflow command's message: a line break
// cannot end the command and start another, and a percent sign cannot
// read as an escape (the runner's escapeData). Terminal escapes and other
// controls are shown escaped first, as on every terminal-bound line.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(termtext.EscapeMultiline(s))
}

// githubProperty escapes s as a workflow command's property value: as
// data, and a colon or a comma cannot end the value (the runner's
// escapeProperty).
func githubProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(githubData(s))
}
