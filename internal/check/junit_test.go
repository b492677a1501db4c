package check

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// junitRead is what the test reads back of a JUnit document.
type junitRead struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// junitCaseRow is one testcase as the table compares it.
type junitCaseRow struct {
	Suite, Name, Class, FailType, FailMsg string
	FailLines, OutLines                   int
}

// junitWant is what the JUnit report of testReport must hold at one
// --fail-on: the totals, each suite's failures, and the testcases of the
// first session (the second raised nothing: all its testcases pass).
type junitWant struct {
	failOn          finding.Severity
	tests, failures int
	suiteFailures   []int
	cases           []junitCaseRow
}

const junitOne, junitTwo = "captures/run one.jsonl s-one", "captures/clean.jsonl s-two"

func junitPass(suite, name, class string) junitCaseRow {
	return junitCaseRow{Suite: suite, Name: name, Class: class}
}

func TestJUnit(t *testing.T) {
	t.Parallel()
	const one = junitOne
	const invalid = "2 findings: a frame is not a JSON-RPC message (bad JSON, bad UTF-8, wrong shape)"
	for _, tc := range []junitWant{
		{failOn: finding.Warning, tests: 8, failures: 2, suiteFailures: []int{2, 0}, cases: []junitCaseRow{
			{one, "invalid-frame", "protocol", "error", invalid, 2, 0},
			{one, "late-result", "protocol", "warning", "id 7 answered late", 1, 0},
			{one, "cancel-unknown-request", "protocol", "", "", 0, 1},
			junitPass(one, "capture-gap", "capture"),
		}},
		{failOn: finding.Error, tests: 8, failures: 1, suiteFailures: []int{1, 0}, cases: []junitCaseRow{
			{one, "invalid-frame", "protocol", "error", invalid, 2, 0},
			{one, "late-result", "protocol", "", "", 0, 1},
			{one, "cancel-unknown-request", "protocol", "", "", 0, 1},
			junitPass(one, "capture-gap", "capture"),
		}},
		{failOn: finding.Info, tests: 8, failures: 3, suiteFailures: []int{3, 0}, cases: []junitCaseRow{
			{one, "invalid-frame", "protocol", "error", invalid, 2, 0},
			{one, "late-result", "protocol", "warning", "id 7 answered late", 1, 0},
			{one, "cancel-unknown-request", "protocol", "info", "cancelled an unknown request", 1, 0},
			junitPass(one, "capture-gap", "capture"),
		}},
	} {
		checkJUnit(t, tc)
	}
}

// checkJUnit checks the JUnit report of testReport at tc.failOn.
func checkJUnit(t *testing.T, tc junitWant) {
	t.Helper()
	r := testReport(t)
	r.FailOn = tc.failOn
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc junitRead
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("fail-on %s: JUnit does not parse: %v\n%s", tc.failOn, err, buf.Bytes())
	}
	if doc.Tests != tc.tests || doc.Failures != tc.failures || len(doc.Suites) != 2 {
		t.Fatalf("fail-on %s: %d tests, %d failures, %d suites; want %d, %d, 2", tc.failOn, doc.Tests, doc.Failures, len(doc.Suites), tc.tests, tc.failures)
	}
	var got []junitCaseRow
	for i, s := range doc.Suites {
		if s.Tests != len(r.Rules) || s.Failures != tc.suiteFailures[i] || len(s.Cases) != s.Tests {
			t.Errorf("fail-on %s: suite %q has %d tests, %d failures, %d testcases; want %d, %d", tc.failOn, s.Name, s.Tests, s.Failures, len(s.Cases), len(r.Rules), tc.suiteFailures[i])
		}
		for _, c := range s.Cases {
			row := junitCaseRow{Suite: s.Name, Name: c.Name, Class: c.Classname, OutLines: strings.Count(c.SystemOut, "\n")}
			if f := c.Failure; f != nil {
				row.FailType, row.FailMsg, row.FailLines = f.Type, f.Message, strings.Count(f.Text, "\n")
			}
			if i == 0 {
				got = append(got, row)
			} else if row != junitPass(junitTwo, c.Name, c.Classname) {
				t.Errorf("fail-on %s: the clean session's testcase %+v is not a pass", tc.failOn, row)
			}
		}
	}
	if diff := cmp.Diff(tc.cases, got); diff != "" {
		t.Errorf("fail-on %s: testcases of %s (-want +got):\n%s", tc.failOn, junitOne, diff)
	}
}

func TestJUnitItemLines(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, testReport(t)); err != nil {
		t.Fatal(err)
	}
	var doc junitRead
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Suites[0].Cases[0].Failure.Text + doc.Suites[0].Cases[1].Failure.Text + doc.Suites[0].Cases[2].SystemOut
	want := "error seq 3, line 4: line is not JSON\n" +
		`error seq 9, line 10: bad\x0d\x0aline ::error file=x::pwned 100%0A done, a:b <x>&\x1b[31m` + "\n" +
		"warning seq 7, line 8, tools/call create_account: id 7 answered late\n" +
		"info seq 0: cancelled an unknown request\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("finding lines (-want +got):\n%s", diff)
	}
	props := map[string]string{}
	for _, p := range doc.Suites[0].Props {
		props[p.Name] = p.Value
	}
	wantProps := map[string]string{"path": "captures/run one.jsonl", "session": "s-one", "label": "demo", "suppressed": "1", "damage": "torn=true corrupt-lines=0"}
	if diff := cmp.Diff(wantProps, props); diff != "" {
		t.Errorf("suite properties (-want +got):\n%s", diff)
	}
}

func TestJUnitRuleOutsideTheReport(t *testing.T) {
	t.Parallel()
	r := testReport(t)
	r.Results[1].Items = []Item{{Finding: finding.Finding{Rule: "max-errors", Severity: finding.Error, Message: "3 errors"}}}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc junitRead
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if n0, n1 := len(doc.Suites[0].Cases), len(doc.Suites[1].Cases); n0 != 4 || n1 != 5 {
		t.Fatalf("testcases %d and %d; want 4 (the enabled rules) and 5 (and max-errors)", n0, n1)
	}
	if c := doc.Suites[1].Cases[4]; c.Name != "max-errors" || c.Failure == nil || c.Failure.Message != "3 errors" {
		t.Errorf("max-errors testcase %+v", c)
	}
}
