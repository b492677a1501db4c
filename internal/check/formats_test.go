package check

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// hostile is a finding message written to break every format: a line
// break that would start a new workflow command, the command separator,
// a percent sign that looks like an escape, markup and a terminal escape.
const hostile = "bad\r\nline ::error file=x::pwned 100%0A done, a:b <x>&\x1b[31m"

// testReport is a hand-made report over two captures: the first raises an
// error, a warning, an info finding about the whole session and a hostile
// message; the second raises nothing and had two findings suppressed.
func testReport(t *testing.T) *Report {
	t.Helper()
	reg := rules.Default()
	var enabled []finding.Rule
	for _, id := range []string{finding.InvalidFrame, finding.LateResult, finding.CancelUnknown, finding.CaptureGap} {
		ru, ok := reg.Rule(id)
		if !ok {
			t.Fatalf("rule %s is not in the registry", id)
		}
		enabled = append(enabled, ru)
	}
	item := func(id string, sev finding.Severity, seq uint64, line int, call, msg, fp string) Item {
		return Item{Finding: finding.Finding{Rule: id, Severity: sev, Seq: seq, Call: -1, Line: line, Message: msg}, Call: call, Fingerprint: fp}
	}
	return &Report{
		Tool:   "0.1.0-test",
		FailOn: finding.Warning,
		Rules:  enabled,
		Results: []Result{
			{
				Path: "captures/run one.jsonl", SessionID: "s-one", Label: "demo",
				Damage: capture.Damage{Torn: true, TornBytes: 9},
				Items: []Item{
					item(finding.InvalidFrame, finding.Error, 3, 4, "", "line is not JSON", "fp-invalid"),
					item(finding.CancelUnknown, finding.Info, 0, 0, "", "cancelled an unknown request", "fp-cancel"),
					item(finding.LateResult, finding.Warning, 7, 8, "tools/call create_account", "id 7 answered late", "fp-late"),
					item(finding.InvalidFrame, finding.Error, 9, 10, "", hostile, "fp-hostile"),
				},
				Suppressed: 1,
			},
			{Path: "captures/clean.jsonl", SessionID: "s-two", Suppressed: 2},
		},
	}
}

func TestArtifactURI(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"a.jsonl":                "a.jsonl",
		"captures/run one.jsonl": "captures/run%20one.jsonl",
		"dir/50%#?.jsonl":        "dir/50%25%23%3F.jsonl",
		"a:b.jsonl":              "./a:b.jsonl",
		"-":                      "-",
	}
	if filepath.IsAbs("/abs") { // not on Windows
		cases["/abs/x y.jsonl"] = "file:///abs/x%20y.jsonl"
	}
	for path, want := range cases {
		if diff := cmp.Diff(want, artifactURI(path)); diff != "" {
			t.Errorf("artifactURI(%q) (-want +got):\n%s", path, diff)
		}
	}
}

func TestRuleTableAddsUnknownRules(t *testing.T) {
	t.Parallel()
	r := testReport(t)
	r.Results[1].Items = []Item{{Finding: finding.Finding{Rule: "max-errors", Severity: finding.Error}}}
	got, index := ruleTable(r)
	if len(got) != len(r.Rules)+1 || got[len(got)-1].ID != "max-errors" || index["max-errors"] != len(r.Rules) {
		t.Errorf("ruleTable = %+v, %v; want the report's rules then max-errors", got, index)
	}
	if len(r.Rules) != 4 {
		t.Errorf("ruleTable changed the report's rules: %d", len(r.Rules))
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWritersReportWriteErrors(t *testing.T) {
	t.Parallel()
	for name, write := range map[string]func(io.Writer, *Report) error{
		"sarif": WriteSARIF, "junit": WriteJUnit, "github": WriteGitHub,
	} {
		if err := write(failingWriter{}, testReport(t)); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: error %v; want the write's", name, err)
		}
	}
}
