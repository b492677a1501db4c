package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes r as JUnit XML: one testsuite per capture (session),
// one testcase per enabled rule; a rule that raised failing findings is a
// failed testcase whose failure lists their messages, and findings below
// the threshold go to the testcase's system-out.
func WriteJUnit(w io.Writer, r *Report) error {
	rules, _ := ruleTable(r)
	out := junitSuites{Name: "mcptrail check"}
	for i := range r.Results {
		s := junitSuiteOf(&r.Results[i], rules, len(r.Rules), r.FailOn)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("writing JUnit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing JUnit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("writing JUnit: %w", err)
	}
	return nil
}

// junitSuiteOf is the testsuite of one session: a testcase per enabled
// rule (the first enabled of rules), and one per other rule it raised.
func junitSuiteOf(res *Result, rules []finding.Rule, enabled int, failOn finding.Severity) junitSuite {
	name := res.Path
	if res.SessionID != "" {
		name += " " + res.SessionID
	}
	s := junitSuite{Name: name, Properties: []junitProperty{
		{"path", res.Path}, {"session", res.SessionID}, {"label", res.Label},
		{"suppressed", fmt.Sprint(res.Suppressed)},
	}}
	if res.Damage.Torn || res.Damage.Corrupt > 0 {
		s.Properties = append(s.Properties, junitProperty{"damage",
			fmt.Sprintf("torn=%t corrupt-lines=%d", res.Damage.Torn, res.Damage.Corrupt)})
	}
	byRule := make(map[string][]*Item)
	for j := range res.Items {
		it := &res.Items[j]
		byRule[it.Rule] = append(byRule[it.Rule], it)
	}
	for i, ru := range rules {
		items := byRule[ru.ID]
		if len(items) == 0 && i >= enabled {
			continue // not an enabled rule, raised in another session
		}
		c := junitCaseOf(ru, items, failOn)
		if c.Failure != nil {
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	return s
}

// junitCaseOf is the testcase of rule ru in one session.
func junitCaseOf(ru finding.Rule, items []*Item, failOn finding.Severity) junitCase {
	c := junitCase{Name: ru.ID, Classname: string(ru.Category)}
	if c.Classname == "" {
		c.Classname = "mcptrail"
	}
	var failing, other strings.Builder
	n, worst := 0, finding.Info
	for _, it := range items {
		b := &other
		if it.Failing(failOn) {
			b = &failing
			if n++; rank(it.Severity) < rank(worst) {
				worst = it.Severity
			}
		}
		b.WriteString(junitLine(it))
	}
	if n > 0 {
		msg := fmt.Sprintf("%d findings: %s", n, ru.Summary)
		if n == 1 {
			msg = termtext.Escape(items[firstFailing(items, failOn)].Message)
		}
		c.Failure = &junitFailure{Message: msg, Type: string(worst), Text: failing.String()}
	}
	c.SystemOut = other.String()
	return c
}

// firstFailing is the index of the first of items that fails the run.
func firstFailing(items []*Item, failOn finding.Severity) int {
	for i, it := range items {
		if it.Failing(failOn) {
			return i
		}
	}
	return 0
}

// junitLine describes it on one line: where, then what.
func junitLine(it *Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s seq %d", it.Severity, it.Seq)
	if it.Line > 0 {
		fmt.Fprintf(&b, ", line %d", it.Line)
	}
	if it.Call != "" {
		fmt.Fprintf(&b, ", %s", it.Call)
	}
	// Messages quote the wire: a line break or a terminal escape in one
	// shows escaped, so each finding stays on its line.
	fmt.Fprintf(&b, ": %s\n", termtext.Escape(it.Message))
	return b.String()
}
