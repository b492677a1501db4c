package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// mcptrail is the binary TestMain built; set once before any test runs.
var mcptrail string

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, testbin.Target{Out: &mcptrail, Pkg: testbin.Mcptrail}))
}

// corpus are the transcripts the tools are compared with the CLI on:
// MRTR and legacy elicitations, errors, invalid frames, a cancelled call.
var corpus = []string{"elicit-seed", "legacy-url-required", "errors", "invalid-frames", "cancel-late", "mrtr-chain"}

// stateWith writes a capture of each transcript named (tuitest.Capture:
// the real capture.Writer) into a fresh state directory's sessions
// folder and returns the directory; session i's id is tuitest-NAME.
func stateWith(t *testing.T, names ...string) string {
	t.Helper()
	state := t.TempDir()
	for i, name := range names {
		writeSession(t, state, i, name, tuitest.Capture(t, name, tuitest.ReadTranscript(t, tuitest.Transcript(name)), true))
	}
	return state
}

// writeSession writes capt into state's sessions folder as the i'th
// session, named as the proxy names its files.
func writeSession(t *testing.T, state string, i int, label string, capt []byte) string {
	t.Helper()
	dir := filepath.Join(state, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("20260801T12%02d00.000000Z-%s-tuitest-%s.jsonl", i, label, label))
	if err := os.WriteFile(path, capt, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// connect starts `mcptrail mcp args...` over state with the go-sdk
// client and returns the client's session, closed at the test's end.
func connect(t *testing.T, state string, args ...string) *mcp.ClientSession {
	t.Helper()
	return connectEra(t, state, "", args...)
}

// connectEra is connect with the client's protocol version set ("" its
// latest, 2026-07-28; "2025-11-25" sends initialize).
func connectEra(t *testing.T, state, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(mcptrail, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcptrail-e2e", Version: "1"}, nil)
	var copts *mcp.ClientSessionOptions
	if version != "" {
		copts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, copts)
	if err != nil {
		t.Fatalf("connecting to mcptrail mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
		if err := cmd.Wait(); err != nil && !errors.Is(err, os.ErrProcessDone) && !strings.Contains(err.Error(), "Wait was already called") {
			t.Errorf("mcptrail mcp: %v\nstderr:\n%s", err, stderr.String())
		}
	})
	return cs
}

// answer is one tool result as the client got it.
type answer struct {
	tool       string
	structured map[string]any
	text       string
	isError    bool
	size       int // structured content, re-encoded, plus text
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) answer {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	a := answer{tool: tool, isError: res.IsError}
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("%s: content %T, want text", tool, c)
		}
		a.text += tc.Text
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &a.structured); err != nil {
			t.Fatalf("%s: structured content is not an object: %v", tool, err)
		}
		a.size = len(b)
	}
	a.size += len(a.text)
	if !a.isError && a.structured == nil {
		t.Fatalf("%s %v: no structured content; text %q", tool, args, a.text)
	}
	return a
}

// pages calls tool from its first page to its last, following
// next_cursor, and returns every item of member; each page must fit
// budget, measured here by re-encoding what the client decoded (an eighth
// more is allowed for encoding/json's escapes; TestAnswerBudget checks
// the server's own bytes exactly).
func pages(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, member string, budget int) []any {
	t.Helper()
	var all []any
	cursor := ""
	for range 1000 {
		a := map[string]any{"cursor": cursor}
		for k, v := range args {
			a[k] = v
		}
		got := call(t, cs, tool, a)
		if got.isError {
			t.Fatalf("%s %v: %s", tool, a, got.text)
		}
		if got.size > budget+budget/8 {
			t.Errorf("%s %v: answer of %d bytes, over the budget %d", tool, a, got.size, budget)
		}
		items, _ := got.structured[member].([]any)
		all = append(all, items...)
		if total, _ := got.structured["total"].(float64); int(total) < len(all) {
			t.Fatalf("%s: %d items over %d pages, total says %v", tool, len(all), len(all), total)
		}
		next, _ := got.structured["next_cursor"].(string)
		if next == "" {
			if total, _ := got.structured["total"].(float64); int(total) != len(all) {
				t.Errorf("%s: %d items in all pages, total says %v", tool, len(all), total)
			}
			return all
		}
		if got.structured["omitted"] == nil || !strings.Contains(got.text, "cursor") {
			t.Errorf("%s: a page with a next_cursor says nothing of what it left out: %q", tool, got.text)
		}
		cursor = next
	}
	t.Fatalf("%s: no last page", tool)
	return nil
}

// cli runs the real mcptrail over state and returns its stdout decoded;
// exit status 1 (check's findings) is not a failure.
func cli(t *testing.T, state string, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("mcptrail %v: %v", args, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("mcptrail %v: %v\n%s", args, err, out)
	}
}

// TestTools lists the tools with the go-sdk client over the real binary
// and calls each on corpus captures: ledger's rows are `mcptrail ledger
// --json`'s and check's items `mcptrail check -T json`'s, for the same
// session; the sessions, summary and explain_rule answers agree with
// `sessions --json` and `rules --json`.
func TestTools(t *testing.T) {
	t.Parallel()
	state := stateWith(t, corpus...)
	cs := connect(t, state)

	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema == nil || tool.InputSchema == nil {
			t.Errorf("tool %s: input schema %v, output schema %v", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil)
		}
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("tool %s is not annotated read-only and not destructive: %+v", tool.Name, a)
		}
	}
	want := []string{"call", "calls", "check", "diff", "explain_rule", "ledger", "session_summary", "sessions", "tail", "tools"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}

	var rows []map[string]any
	cli(t, state, &rows, "sessions", "--json")
	listed := pages(t, cs, "sessions", nil, "sessions", 16<<10)
	if len(listed) != len(corpus) || len(rows) != len(corpus) {
		t.Fatalf("sessions lists %d, the CLI %d, want %d", len(listed), len(rows), len(corpus))
	}
	for i, row := range rows {
		got := listed[i].(map[string]any)
		for _, k := range []string{"id", "label", "frames", "calls", "server_requests", "errors", "ended"} {
			if !cmp.Equal(got[k], row[k]) {
				t.Errorf("session %d %s: tool %v, CLI %v", i, k, got[k], row[k])
			}
		}
	}

	for _, name := range corpus {
		id := "tuitest-" + name
		t.Run(name, func(t *testing.T) {
			var cliRows []any
			cli(t, state, &cliRows, "ledger", "--json", id)
			got := pages(t, cs, "ledger", map[string]any{"session": id}, "rows", 16<<10)
			if diff := cmp.Diff(cliRows, got, jsonOpts()); diff != "" {
				t.Errorf("ledger rows (-CLI +tool):\n%s", diff)
			}

			var rep struct {
				Results []struct {
					Items []any `json:"items"`
				} `json:"results"`
			}
			cli(t, state, &rep, "check", "-T", "json", id)
			items := pages(t, cs, "check", map[string]any{"session": id}, "items", 16<<10)
			if len(rep.Results) != 1 {
				t.Fatalf("check -T json %s: %d results", id, len(rep.Results))
			}
			if diff := cmp.Diff(rep.Results[0].Items, items, jsonOpts()); diff != "" {
				t.Errorf("check items (-CLI +tool):\n%s", diff)
			}

			sum := call(t, cs, "session_summary", map[string]any{"session": id})
			var row map[string]any
			for _, r := range rows {
				if r["id"] == id {
					row = r
				}
			}
			counts := sum.structured["counts"].(map[string]any)
			errs := sum.structured["errors"].(map[string]any)
			if counts["calls"] != row["calls"] || counts["server_requests"] != row["server_requests"] || errs["total"] != row["errors"] {
				t.Errorf("summary counts %v, errors %v; sessions --json says %v", counts, errs["total"], row)
			}
			findings := sum.structured["findings"].(map[string]any)
			if int(findings["total"].(float64)) != len(items) {
				t.Errorf("summary counts %v findings, check has %d", findings["total"], len(items))
			}
			ledger := sum.structured["ledger"].(map[string]any)
			if int(ledger["questions"].(float64)) != len(cliRows) {
				t.Errorf("summary counts %v questions, the ledger has %d", ledger["questions"], len(cliRows))
			}
			if !strings.Contains(sum.text, id) {
				t.Errorf("summary text does not name the session:\n%s", sum.text)
			}
			every := pages(t, cs, "calls", map[string]any{"session": id}, "calls", 16<<10)
			if len(every) != int(counts["requests"].(float64)) {
				t.Errorf("calls with no filter: %d, the summary counts %v requests", len(every), counts["requests"])
			}
			// The slowest are client calls, slowest first, an MRTR
			// operation once (its first round's row).
			last := math.Inf(1)
			for _, s := range sum.structured["slowest"].([]any) {
				r := s.(map[string]any)
				c := every[int(r["call"].(float64))].(map[string]any)
				if r["dir"] != "c2s" || c["dir"] != "c2s" {
					t.Errorf("slowest lists a server request: %v", r)
				}
				if round, ok := c["round"].(float64); ok && round > 1 {
					t.Errorf("slowest lists round %v of an operation, not the operation: %v", round, r)
				}
				if d := r["duration_ms"].(float64); d > last {
					t.Errorf("slowest not in order: %v after %vms", r, last)
				} else {
					last = d
				}
			}
			for _, q := range []struct{ filter, key, want string }{{"status:error", "status", "error"}, {"dir:s2c", "dir", "s2c"}, {"!dir:s2c", "dir", "c2s"}} {
				n := 0
				for _, c := range every {
					if c.(map[string]any)[q.key] == q.want {
						n++
					}
				}
				got := pages(t, cs, "calls", map[string]any{"session": id, "filter": q.filter}, "calls", 16<<10)
				for _, c := range got {
					if c.(map[string]any)[q.key] != q.want {
						t.Errorf("calls %q: %v", q.filter, c)
					}
				}
				if len(got) != n {
					t.Errorf("calls %q: %d, of which %d have %s %s", q.filter, len(got), n, q.key, q.want)
				}
			}

			// Every call's frames: its request first, never a submitted
			// value; the frames that answered a question say so.
			answered := 0
			for _, c := range every {
				row := c.(map[string]any)
				frames := pages(t, cs, "call", map[string]any{"session": id, "call": row["call"]}, "frames", 16<<10)
				if len(frames) == 0 || frames[0].(map[string]any)["seq"] != row["request_seq"] {
					t.Errorf("call %v: frames %v, want its request #%v first", row["call"], frames, row["request_seq"])
				}
				for _, f := range frames {
					if n, _ := f.(map[string]any)["answers"].(float64); n > 0 {
						answered++
					}
				}
				noCanary(t, call(t, cs, "call", map[string]any{"session": id, "call": row["call"]}))
			}
			if name == "elicit-seed" && answered == 0 {
				t.Error("elicit-seed: no frame of any call answers a question")
			}

			for _, a := range []answer{sum, call(t, cs, "ledger", map[string]any{"session": id}), call(t, cs, "check", map[string]any{"session": id})} {
				noCanary(t, a)
			}

			for _, it := range items {
				rule := it.(map[string]any)["rule"].(string)
				var cliRule []map[string]any
				cli(t, state, &cliRule, "rules", "--json", rule)
				got := call(t, cs, "explain_rule", map[string]any{"id": rule})
				if got.isError || got.structured["help"] != cliRule[0]["help"] || got.structured["severity"] != cliRule[0]["severity"] {
					t.Errorf("explain_rule %s: %v; rules --json says %v", rule, got.structured, cliRule[0])
				}
			}
		})
	}

	// The newest session answers an empty session argument; an unknown
	// one, a bad cursor, an unknown rule and an unknown argument are tool
	// errors the agent reads, and the server goes on.
	if got := call(t, cs, "session_summary", nil); got.structured["session"].(map[string]any)["id"] != "tuitest-"+corpus[len(corpus)-1] {
		t.Errorf("session_summary of the newest: %v", got.structured["session"])
	}
	for _, bad := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"ledger", map[string]any{"session": "nosuch"}, "nosuch"},
		{"check", map[string]any{"session": "tuitest-errors", "cursor": "x"}, "invalid cursor"},
		{"explain_rule", map[string]any{"id": "late"}, "did you mean late-result"},
		{"sessions", map[string]any{"sinse": "1d"}, "sinse"},
		{"sessions", map[string]any{"since": "yesterday"}, "since"},
		{"calls", map[string]any{"filter": "status:nope"}, "want one of ok"},
		{"call", map[string]any{"call": 999}, "no call 999"},
		{"call", map[string]any{}, "call index"},
	} {
		got := call(t, cs, bad.tool, bad.args)
		if !got.isError || !strings.Contains(got.text, bad.want) {
			t.Errorf("%s %v: error %v %q, want an error saying %q", bad.tool, bad.args, got.isError, got.text, bad.want)
		}
	}
}

// jsonOpts compare decoded JSON: an empty list is no list (the CLI
// writes [], pages of none return none).
func jsonOpts() cmp.Option { return cmpopts.EquateEmpty() }

// noCanary fails t when an answer holds a value a user submitted in the
// corpus (elicit-seed's and legacy-url-required's canaries).
func noCanary(t *testing.T, a answer) {
	t.Helper()
	b, _ := json.Marshal(a.structured)
	for _, canary := range []string{"CANARY", "canary@example.com"} {
		testbin.NoCanary(t, canary, "structured content", string(b))
		testbin.NoCanary(t, canary, "text", a.text)
	}
}

// TestHostileCaptures serves a torn capture and the hostile-names
// session (every name and message hostile text, a 1 MB tool name, an
// invalid UTF-8 line) under a small budget: every tool answers within it,
// its text carries no terminal control, and the server stays up.
func TestHostileCaptures(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	torn := tuitest.Capture(t, "torn", tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed")), false)
	torn = append(torn, []byte(`{"type":"frame","seq":99,"dir":"s2c","fra`)...)
	writeSession(t, state, 0, "torn", torn)
	writeSession(t, state, 1, "hostile", tuitest.Capture(t, "hostile", tuitest.HostileSteps(), true))
	const budget = 4096
	cs := connect(t, state, "--max-answer", fmt.Sprint(budget))

	sum := call(t, cs, "session_summary", map[string]any{"session": "tuitest-torn"})
	if d := sum.structured["session"].(map[string]any)["damage"].(map[string]any); d["torn"] != true {
		t.Errorf("torn capture: damage %v", d)
	}
	if got := pages(t, cs, "ledger", map[string]any{"session": "tuitest-torn"}, "rows", budget); len(got) == 0 {
		t.Error("torn capture: no ledger rows before the torn line")
	}
	for _, id := range []string{"tuitest-torn", "tuitest-hostile"} {
		answers := []answer{call(t, cs, "session_summary", map[string]any{"session": id})}
		for _, c := range pages(t, cs, "calls", map[string]any{"session": id}, "calls", budget) {
			answers = append(answers, call(t, cs, "call", map[string]any{"session": id, "call": c.(map[string]any)["call"]}))
		}
		for _, tool := range []string{"ledger", "check", "calls"} {
			member := map[string]string{"ledger": "rows", "check": "items", "calls": "calls"}[tool]
			items := pages(t, cs, tool, map[string]any{"session": id}, member, budget)
			if id == "tuitest-hostile" && len(items) == 0 {
				t.Errorf("%s %s: nothing", tool, id)
			}
			answers = append(answers, call(t, cs, tool, map[string]any{"session": id}))
		}
		answers = append(answers, call(t, cs, "sessions", nil))
		for _, a := range answers {
			if a.isError {
				t.Errorf("%s %s: error %q", a.tool, id, a.text)
			}
			if a.size > budget+budget/8 {
				t.Errorf("%s %s: answer of %d bytes, over the budget %d", a.tool, id, a.size, budget)
			}
			terminalSafe(t, a.text)
		}
	}
	hostile := call(t, cs, "session_summary", map[string]any{"session": "tuitest-hostile"})
	if !strings.Contains(hostile.text, "cut: ") {
		t.Errorf("the 1 MB tool name is not cut in the summary:\n%s", hostile.text)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("the server is gone after the hostile answers: %v", err)
	}
}

// terminalSafe fails t when text holds a control character other than a
// newline, a bidirectional override or a fake row (a line the hostile
// text would start by letting its newline through).
func terminalSafe(t *testing.T, text string) {
	t.Helper()
	for _, r := range text {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r < 0xa0) || slices.Contains([]rune{'\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069'}, r) {
			t.Errorf("text holds %U:\n%q", r, text)
			return
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "fake row") {
			t.Errorf("text has a fake row:\n%q", text)
		}
	}
}

// TestRedaction: the --redact-* flags of mcptrail mcp apply to what every
// tool answers: a value rule scrubs a tool name from the calls, the
// frames, the ledger, the findings, the summary, the catalog, the diff,
// the tail, the resources and the prompt, and a label from the sessions
// list.
func TestRedaction(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed")
	cs := connect(t, state, "--redact-value", "create_account", "--redact-value", "seed$")
	const id = "tuitest-elicit-seed"
	for _, s := range pages(t, cs, "sessions", nil, "sessions", 16<<10) {
		if label := s.(map[string]any)["label"].(string); strings.Contains(label, "seed") {
			t.Errorf("sessions: label %q not redacted", label)
		}
	}
	answers := []answer{call(t, cs, "session_summary", map[string]any{"session": id}), call(t, cs, "ledger", map[string]any{"session": id}),
		call(t, cs, "check", map[string]any{"session": id})}
	calls := pages(t, cs, "calls", map[string]any{"session": id}, "calls", 16<<10)
	if len(calls) == 0 {
		t.Fatal("no calls")
	}
	answers = append(answers, call(t, cs, "calls", map[string]any{"session": id}),
		call(t, cs, "tools", map[string]any{"session": id}),
		call(t, cs, "diff", map[string]any{"a": id, "b": id}),
		call(t, cs, "tail", map[string]any{"session": id, "what": "records", "after_seq": 0, "count": 100, "timeout_s": 5}),
		call(t, cs, "tail", map[string]any{"session": id, "after_seq": 0, "count": 100, "timeout_s": 5}))
	for _, uri := range []string{"mcptrail://sessions/" + id, "mcptrail://sessions/" + id + "/frames/4"} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		testbin.NoCanary(t, "create_account", uri, res.Contents[0].Text)
	}
	p, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "debug_session", Arguments: map[string]string{"session": id}})
	if err != nil {
		t.Fatal(err)
	}
	testbin.NoCanary(t, "create_account", "debug_session", p.Messages[0].Content.(*mcp.TextContent).Text)
	for _, c := range calls {
		answers = append(answers, call(t, cs, "call", map[string]any{"session": id, "call": c.(map[string]any)["call"]}))
	}
	redacted := false
	for _, a := range answers {
		b, _ := json.Marshal(a.structured)
		testbin.NoCanary(t, "create_account", a.tool+"'s structured content", string(b))
		testbin.NoCanary(t, "create_account", a.tool+"'s text", a.text)
		redacted = redacted || strings.Contains(a.text, "[REDACTED]")
	}
	if !redacted {
		t.Error("no answer shows a redacted value")
	}
}

// TestGoClientEras: the go-sdk client in each era (2026-07-28 by
// server/discover, 2025-11-25 by initialize) negotiates it and gets the
// CLI's ledger rows and check items, the resources and the prompt.
func TestGoClientEras(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed", "errors")
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		cs := connectEra(t, state, version)
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Errorf("asked for %s, negotiated %s", version, got)
		}
		for _, id := range []string{"tuitest-elicit-seed", "tuitest-errors"} {
			var rows []any
			cli(t, state, &rows, "ledger", "--json", id)
			if d := cmp.Diff(rows, pages(t, cs, "ledger", map[string]any{"session": id}, "rows", 16<<10), jsonOpts()); d != "" {
				t.Errorf("%s: ledger %s (-CLI +tool):\n%s", version, id, d)
			}
			var rep struct {
				Results []struct {
					Items []any `json:"items"`
				} `json:"results"`
			}
			cli(t, state, &rep, "check", "-T", "json", id)
			if d := cmp.Diff(rep.Results[0].Items, pages(t, cs, "check", map[string]any{"session": id}, "items", 16<<10), jsonOpts()); d != "" {
				t.Errorf("%s: check %s (-CLI +tool):\n%s", version, id, d)
			}
		}
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mcptrail://sessions/tuitest-errors"})
		if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "tuitest-errors") {
			t.Errorf("%s: report: %v %v", version, res, err)
		}
		if p, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "debug_session"}); err != nil || len(p.Messages) != 1 {
			t.Errorf("%s: debug_session: %v %v", version, p, err)
		}
	}
}
