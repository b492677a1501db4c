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

// tsRun is what testdata/tsclient.mjs prints.
type tsRun struct {
	ProtocolVersion string `json:"protocolVersion"`
	Era             string `json:"era"`
	Tools           []struct {
		Name         string `json:"name"`
		OutputSchema bool   `json:"outputSchema"`
		ReadOnly     bool   `json:"readOnly"`
	} `json:"tools"`
	Templates []string `json:"templates"`
	Prompts   []string `json:"prompts"`
	Results   []struct {
		Name       string         `json:"name"`
		IsError    bool           `json:"isError"`
		Structured map[string]any `json:"structured"`
		Text       string         `json:"text"`
	} `json:"results"`
	Resources []struct {
		URI   string `json:"uri"`
		Text  string `json:"text"`
		Error string `json:"error"`
	} `json:"resources"`
	Prompt string `json:"prompt"`
}

// tsCall is one call of a tsclient.mjs plan.
type tsCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// runTS runs tsclient.mjs with plan against `mcptrail mcp args...` over
// state and returns what it printed.
func runTS(t *testing.T, dir, state string, plan map[string]any, args ...string) *tsRun {
	t.Helper()
	pj, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, "tsclient.mjs"), string(pj), "--", mcptrail, "mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tsclient.mjs %s: %v\nstderr:\n%s", pj, err, stderr.String())
	}
	var run tsRun
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("tsclient.mjs: %v\n%s", err, out)
	}
	return &run
}

// TestTSClient drives mcptrail mcp with the TypeScript SDK v2 client in
// both eras (2026-07-28 by its auto negotiation, 2025-11-25 by its legacy
// mode): it lists the ten tools (each with an output schema, read-only),
// the two resource templates and the prompt, calls every tool on corpus
// sessions and on a live one (an mcptrail mcp the real proxy is
// capturing), and gets the CLI's answers: ledger --json's rows, check -T
// json's items, diff --json's lists, tools --json's tools; the resources
// and the prompt answer; no answer holds a submitted value.
func TestTSClient(t *testing.T) {
	t.Parallel()
	dir := testbin.NodeScripts(t, testbin.NodeModules(t), "testdata/tsclient.mjs")
	state := stateWith(t, "elicit-seed", "errors", "catalog-drift", "legacy-url-required")
	live, _ := connectProxied(t, state, "live")
	if _, err := live.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var liveID string
	var rows []map[string]any
	cli(t, state, &rows, "sessions", "--json")
	for _, r := range rows {
		if r["label"] == "live" {
			liveID = r["id"].(string)
		}
	}
	if liveID == "" {
		t.Fatal("no live session")
	}

	sessions := []string{"tuitest-elicit-seed", "tuitest-errors", "tuitest-legacy-url-required", liveID}
	var calls []tsCall
	calls = append(calls, tsCall{Name: "sessions"})
	for _, id := range sessions {
		calls = append(calls,
			tsCall{"session_summary", map[string]any{"session": id}},
			tsCall{"calls", map[string]any{"session": id}},
			tsCall{"call", map[string]any{"session": id, "call": 0}},
			tsCall{"ledger", map[string]any{"session": id}},
			tsCall{"check", map[string]any{"session": id}},
			tsCall{"tools", map[string]any{"session": id}},
			tsCall{"tail", map[string]any{"session": id, "what": "records", "after_seq": 0, "count": 3, "timeout_s": 5}},
		)
	}
	calls = append(calls,
		tsCall{"diff", map[string]any{"a": "tuitest-errors", "b": "tuitest-elicit-seed"}},
		tsCall{"diff", map[string]any{"a": "tuitest-catalog-drift", "b": liveID}},
		tsCall{"tools", map[string]any{"session": liveID, "baseline": "tuitest-catalog-drift"}},
		tsCall{"explain_rule", map[string]any{"id": "late-result"}},
	)
	plan := map[string]any{"calls": calls,
		"resources": []string{"mcptrail://sessions/tuitest-errors", "mcptrail://sessions/" + liveID + "/frames/1", "mcptrail://sessions/nosuch"},
		"prompt":    map[string]any{"name": "debug_session", "args": map[string]any{"session": "tuitest-errors"}}}

	for _, era := range []struct{ negotiation, version string }{{"auto", "2026-07-28"}, {"legacy", "2025-11-25"}} {
		t.Run(era.version, func(t *testing.T) {
			plan["negotiation"] = era.negotiation
			run := runTS(t, dir, state, plan, "--max-answer", "65536")
			if run.ProtocolVersion != era.version {
				t.Errorf("negotiated %q (era %q), want %s", run.ProtocolVersion, run.Era, era.version)
			}
			var names []string
			for _, tool := range run.Tools {
				names = append(names, tool.Name)
				if !tool.OutputSchema || !tool.ReadOnly {
					t.Errorf("tool %+v: no output schema or not read-only", tool)
				}
			}
			slices.Sort(names)
			want := []string{"call", "calls", "check", "diff", "explain_rule", "ledger", "session_summary", "sessions", "tail", "tools"}
			if d := cmp.Diff(want, names); d != "" {
				t.Errorf("tools (-want +got):\n%s", d)
			}
			if len(run.Templates) != 2 || len(run.Prompts) != 1 || run.Prompts[0] != "debug_session" {
				t.Errorf("templates %v, prompts %v", run.Templates, run.Prompts)
			}
			if len(run.Results) != len(calls) {
				t.Fatalf("%d results for %d calls", len(run.Results), len(calls))
			}
			for i, res := range run.Results {
				c := calls[i]
				if res.IsError || res.Structured == nil {
					t.Errorf("%s %v: error %v, %q", c.Name, c.Args, res.IsError, res.Text)
					continue
				}
				if res.Structured["next_cursor"] != nil && c.Name != "tail" {
					t.Errorf("%s %v: more than one page under 64 KiB", c.Name, c.Args)
				}
				b, _ := json.Marshal(res.Structured)
				noCanary(t, answer{structured: res.Structured, text: res.Text})
				id, _ := c.Args["session"].(string)
				switch c.Name {
				case "ledger":
					var want []any
					cli(t, state, &want, "ledger", "--json", id)
					if d := cmp.Diff(want, res.Structured["rows"], jsonOpts()); d != "" {
						t.Errorf("ledger %s (-CLI +tool):\n%s", id, d)
					}
				case "check":
					var rep struct {
						Results []struct {
							Items []any `json:"items"`
						} `json:"results"`
					}
					cli(t, state, &rep, "check", "-T", "json", id)
					if d := cmp.Diff(rep.Results[0].Items, res.Structured["items"], jsonOpts()); d != "" {
						t.Errorf("check %s (-CLI +tool):\n%s", id, d)
					}
				case "tools":
					if c.Args["baseline"] != nil {
						continue
					}
					var cat map[string]any
					cli(t, state, &cat, "tools", "--json", id)
					if d := cmp.Diff(cat["tools"], res.Structured["tools"], jsonOpts(), cutStrings()); d != "" {
						t.Errorf("tools %s (-CLI +tool):\n%s", id, d)
					}
				case "diff":
					var rep map[string]any
					cli(t, state, &rep, "diff", "--json", c.Args["a"].(string), c.Args["b"].(string))
					got := map[string][]any{}
					for _, ch := range res.Structured["changes"].([]any) {
						m := ch.(map[string]any)
						got[m["section"].(string)] = append(got[m["section"].(string)], m["change"])
					}
					for _, sec := range []string{"catalog", "calls.only_a", "calls.only_b", "ledger", "findings.new", "findings.gone"} {
						var want any = rep
						for _, k := range strings.Split(sec, ".") {
							want = want.(map[string]any)[k]
						}
						if d := cmp.Diff(want, any(got[sec]), jsonOpts()); d != "" {
							t.Errorf("diff %v section %s (-CLI +tool):\n%s", c.Args, sec, d)
						}
					}
				case "session_summary":
					if h := res.Structured["session"].(map[string]any); (id == liveID) != (h["live"] == true) {
						t.Errorf("summary of %s: live %v", id, h["live"])
					}
				case "tail":
					if n := res.Structured["total"].(float64); n < 3 {
						t.Errorf("tail of %s from seq 0: %v frames: %s", id, n, b)
					}
				}
			}
			if r := run.Resources; len(r) != 3 || !strings.Contains(r[0].Text, "mcptrail session tuitest-errors") ||
				!strings.Contains(r[1].Text, `"method":"server/discover"`) || !strings.Contains(r[2].Error, "not found") {
				t.Errorf("resources: %+v", r)
			}
			if !strings.Contains(run.Prompt, "tuitest-errors") || !strings.Contains(run.Prompt, "session_summary") {
				t.Errorf("prompt: %q", run.Prompt)
			}
		})
	}
}

// cutStrings compares a string an answer cut (…[cut: N bytes in all])
// with the whole one as equal when the whole one starts with what was
// kept.
func cutStrings() cmp.Option {
	const mark = "…[cut: "
	return cmp.FilterValues(func(x, y string) bool { return strings.Contains(x, mark) != strings.Contains(y, mark) },
		cmp.Comparer(func(x, y string) bool {
			if strings.Contains(x, mark) {
				x, y = y, x
			}
			kept, _, _ := strings.Cut(y, mark)
			return strings.HasPrefix(x, kept)
		}))
}
