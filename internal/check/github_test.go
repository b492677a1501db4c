package check

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// workflowCommand is a workflow command as the Actions runner reads one
// (ActionCommand.TryParseV2 in actions/runner): the properties end at the
// first "::" after the leading one, each property is split at its first
// "=", and properties and data are unescaped.
type workflowCommand struct {
	Command string
	Props   map[string]string
	Data    string
}

func parseWorkflowCommand(t *testing.T, line string) workflowCommand {
	t.Helper()
	if !strings.HasPrefix(line, "::") {
		t.Fatalf("not a workflow command: %q", line)
	}
	end := strings.Index(line[2:], "::")
	if end < 0 {
		t.Fatalf("no end of properties: %q", line)
	}
	info, data := line[2:2+end], line[2+end+2:]
	unescape := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	c := workflowCommand{Command: info, Props: map[string]string{}, Data: unescape.Replace(data)}
	if cmd, props, ok := strings.Cut(info, " "); ok {
		c.Command = cmd
		for _, p := range strings.Split(props, ",") {
			if k, v, ok := strings.Cut(p, "="); ok {
				c.Props[k] = unescape.Replace(v)
			}
		}
	}
	return c
}

func TestGitHub(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, testReport(t)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines; want 4 commands and a summary:\n%s", len(lines), buf.String())
	}
	var got []workflowCommand
	for _, l := range lines[:4] {
		got = append(got, parseWorkflowCommand(t, l))
	}
	const file = "captures/run one.jsonl"
	want := []workflowCommand{
		{"error", map[string]string{"file": file, "line": "4", "title": "invalid-frame"}, "line is not JSON (session s-one, seq 3)"},
		{"notice", map[string]string{"file": file, "title": "cancel-unknown-request"}, "cancelled an unknown request (session s-one, seq 0)"},
		{"warning", map[string]string{"file": file, "line": "8", "title": "late-result"}, "id 7 answered late (session s-one, seq 7, tools/call create_account)"},
		// The hostile message stays one command; its controls show escaped.
		{"error", map[string]string{"file": file, "line": "10", "title": "invalid-frame"}, `bad\x0d` + "\nline ::error file=x::pwned 100%0A done, a:b <x>&" + `\x1b[31m (session s-one, seq 9)`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
	if want := "mcptrail check: 4 findings in 2 sessions, 3 at or above warning, 3 suppressed by the baseline"; lines[4] != want {
		t.Errorf("summary %q; want %q", lines[4], want)
	}
}

func TestGitHubEscaping(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, rule, msg string
		props           map[string]string
		data            string
	}{
		{"a.jsonl", "r", "plain", map[string]string{"file": "a.jsonl", "title": "r"}, "plain (seq 1)"},
		{"a.jsonl", "r", "two\nlines\n::error::x", map[string]string{"file": "a.jsonl", "title": "r"}, "two\nlines\n::error::x (seq 1)"},
		{"a.jsonl", "r", "100% %0A %25", map[string]string{"file": "a.jsonl", "title": "r"}, "100% %0A %25 (seq 1)"},
		{"d,x/a:b::c%0A.jsonl", "r:1,2", "m", map[string]string{"file": "d,x/a:b::c%0A.jsonl", "title": "r:1,2"}, "m (seq 1)"},
		{"new\nline.jsonl", "r", "m", map[string]string{"file": "new\nline.jsonl", "title": "r"}, "m (seq 1)"},
		{"-", "r", "from stdin", map[string]string{"title": "r"}, "from stdin (seq 1)"},
	} {
		r := &Report{FailOn: finding.Error, Results: []Result{{Path: tc.path, Items: []Item{
			{Finding: finding.Finding{Rule: tc.rule, Severity: finding.Warning, Seq: 1, Message: tc.msg}},
		}}}}
		var buf bytes.Buffer
		if err := WriteGitHub(&buf, r); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if len(lines) != 3 || lines[2] != "" {
			t.Errorf("%q: %d lines; want one command and the summary:\n%s", tc.msg, len(lines)-1, buf.String())
			continue
		}
		got := parseWorkflowCommand(t, lines[0])
		want := workflowCommand{Command: "warning", Props: tc.props, Data: tc.data}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("path %q, rule %q, message %q (-want +got):\n%s", tc.path, tc.rule, tc.msg, diff)
		}
	}
}
