package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// inspector runs MCP Inspector's CLI (@modelcontextprotocol/inspector-cli,
// a NodePackages peer) against `mcptrail mcp` over state with args
// (--method and its options) and decodes what it prints. It runs the
// package's build/index.js from its build folder: 1.0.3 looks for its
// package.json relative to the working directory (its bin wrapper expects
// the whole inspector beside it).
func inspector(t *testing.T, state string, v any, args ...string) {
	t.Helper()
	build := filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "inspector-cli", "build")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(build, "index.js"), mcptrail, "mcp"}, args...)...)
	cmd.Dir = build
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector-cli %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, stderr.String())
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("inspector-cli %v: %v\n%s", args, err, out)
	}
}

// TestInspectorCLI: MCP Inspector's CLI lists the ten tools, the
// resource templates and the prompt, calls every tool (its --tool-arg
// pairs), reads a report and a frame and gets the prompt; the ledger it
// gets is `mcptrail ledger --json`'s.
func TestInspectorCLI(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed", "errors")
	const id = "tuitest-elicit-seed"
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	inspector(t, state, &list, "--method", "tools/list")
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if d := cmp.Diff([]string{"call", "calls", "check", "diff", "explain_rule", "ledger", "session_summary", "sessions", "tail", "tools"}, names); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	type result struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	for _, c := range [][]string{
		{"sessions"}, {"session_summary", "session=" + id}, {"calls", "session=" + id, "filter=status:error"},
		{"call", "session=" + id, "call=0"}, {"ledger", "session=" + id}, {"check", "session=tuitest-errors"},
		{"diff", "a=tuitest-errors", "b=" + id}, {"tools", "session=" + id},
		{"tail", "session=" + id, "what=records", "after_seq=0", "count=100", "timeout_s=5"}, {"explain_rule", "id=late-result"},
	} {
		args := []string{"--method", "tools/call", "--tool-name", c[0]}
		if len(c) > 1 {
			args = append(args, "--tool-arg")
			args = append(args, c[1:]...)
		}
		var res result
		inspector(t, state, &res, args...)
		if res.IsError || res.StructuredContent == nil || len(res.Content) == 0 {
			t.Errorf("%v: %+v", c, res)
			continue
		}
		b, _ := json.Marshal(res.StructuredContent)
		noCanary(t, answer{structured: res.StructuredContent, text: res.Content[0].Text})
		if c[0] == "ledger" {
			var want []any
			cli(t, state, &want, "ledger", "--json", id)
			if d := cmp.Diff(want, res.StructuredContent["rows"], jsonOpts()); d != "" {
				t.Errorf("ledger (-CLI +inspector):\n%s", d)
			}
		}
		if c[0] == "tail" && !strings.Contains(string(b), `"stopped":"ended"`) {
			t.Errorf("tail of an ended session: %s", b)
		}
	}
	var tmpl struct {
		ResourceTemplates []struct {
			URITemplate string `json:"uriTemplate"`
		} `json:"resourceTemplates"`
	}
	inspector(t, state, &tmpl, "--method", "resources/templates/list")
	if len(tmpl.ResourceTemplates) != 2 {
		t.Errorf("resource templates: %+v", tmpl)
	}
	var read struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	inspector(t, state, &read, "--method", "resources/read", "--uri", "mcptrail://sessions/tuitest-errors")
	if len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, "mcptrail session tuitest-errors") {
		t.Errorf("report: %+v", read)
	}
	var prompt struct {
		Messages []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	inspector(t, state, &prompt, "--method", "prompts/get", "--prompt-name", "debug_session", "--prompt-args", "session=tuitest-errors")
	if len(prompt.Messages) != 1 || !strings.Contains(prompt.Messages[0].Content.Text, "tuitest-errors") {
		t.Errorf("prompt: %+v", prompt)
	}
}
