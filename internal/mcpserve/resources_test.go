package mcpserve_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// read reads a resource with the go-sdk client and returns its one text.
func read(t *testing.T, cs *mcp.ClientSession, uri string) (string, error) {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("%s: contents %+v", uri, res.Contents)
	}
	return res.Contents[0].Text, nil
}

// TestResourcesAndPrompt reads the resources over the real binary: a
// session's report is `mcptrail export -T text`'s, every frame of every
// call reads whole at the uri the call tool gives (what the tool cut
// there whole, never an answer's value); the hostile session's 1 MB tool
// name is bounded; unknown sessions and frames are resource-not-found
// errors; debug_session names the session and the tools in order.
func TestResourcesAndPrompt(t *testing.T) {
	t.Parallel()
	names := []string{"elicit-seed", "legacy-url-required", "errors", "mrtr-chain"}
	state := stateWith(t, names...)
	writeSession(t, state, len(names), "hostile", tuitest.Capture(t, "hostile", tuitest.HostileSteps(), true))
	cs := connect(t, state)

	tmpl, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, rt := range tmpl.ResourceTemplates {
		uris = append(uris, rt.URITemplate)
	}
	if d := cmp.Diff([]string{"mcptrail://sessions/{id}", "mcptrail://sessions/{id}/frames/{seq}"}, uris); d != "" {
		t.Errorf("resource templates (-want +got):\n%s", d)
	}

	for _, name := range append(names, "hostile") {
		id := "tuitest-" + name
		report, err := read(t, cs, "mcptrail://sessions/"+id)
		if err != nil {
			t.Fatalf("report of %s: %v", id, err)
		}
		cmd := exec.Command(mcptrail, "export", "-T", "text", id)
		cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state, "COLUMNS=")
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("export -T text %s: %v", id, err)
		}
		if len(want) <= 1<<20 && report != string(want) {
			i := 0
			for i < min(len(want), len(report)) && want[i] == report[i] {
				i++
			}
			t.Errorf("report of %s (%d bytes) is not export -T text's (%d): from byte %d, %q, want %q", id, len(report), len(want), i,
				report[i:min(len(report), i+80)], want[i:min(len(want), i+80)])
		}
		if len(report) > 1<<20+200 {
			t.Errorf("report of %s: %d bytes", id, len(report))
		}
		testNoCanaryText(t, report)

		for _, c := range pages(t, cs, "calls", map[string]any{"session": id}, "calls", 16<<10) {
			for _, f := range pages(t, cs, "call", map[string]any{"session": id, "call": c.(map[string]any)["call"]}, "frames", 16<<10) {
				fr := f.(map[string]any)
				uri, _ := fr["uri"].(string)
				whole, err := read(t, cs, uri)
				if err != nil {
					t.Fatalf("frame %v of %s: %v", fr["seq"], id, err)
				}
				testNoCanaryText(t, whole)
				if len(whole) > 1<<20+200 {
					t.Errorf("frame %s: %d bytes", uri, len(whole))
				}
				msg, ok := fr["msg"]
				if !ok {
					continue
				}
				shown, _ := json.Marshal(msg)
				var v any
				if strings.Contains(string(shown), "…[cut: ") {
					if strings.Contains(whole, "…[cut: ") && len(whole) < 1<<20 || len(whole) <= len(shown)/2 {
						t.Errorf("frame %s: the resource (%d bytes) is no more whole than the call's (%d)", uri, len(whole), len(shown))
					}
					continue
				}
				if err := json.Unmarshal([]byte(whole), &v); err != nil {
					t.Errorf("frame %s is not JSON: %v", uri, err)
				} else if !cmp.Equal(v, msg) {
					t.Errorf("frame %s: resource %v, call %v", uri, v, msg)
				}
			}
		}
	}
	for _, uri := range []string{"mcptrail://sessions/nosuch", "mcptrail://sessions/tuitest-errors/frames/99999", "mcptrail://sessions/tuitest-errors/frames/x"} {
		if _, err := read(t, cs, uri); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s: %v, want resource not found", uri, err)
		}
	}

	prompts, err := cs.ListPrompts(context.Background(), nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "debug_session" {
		t.Fatalf("prompts: %v %v", prompts, err)
	}
	p, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "debug_session", Arguments: map[string]string{"session": "tuitest-errors", "problem": "the call hangs"}})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	last := -1
	for _, step := range []string{"tuitest-errors", "the call hangs", "session_summary:", "status:error", "call with", "check:", "tail"} {
		i := strings.Index(text, step)
		if i < last {
			t.Errorf("debug_session: %q missing or out of order:\n%s", step, text)
		}
		last = i
	}
	if _, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "debug_session", Arguments: map[string]string{"session": "nosuch"}}); err == nil {
		t.Error("debug_session of an unknown session: no error")
	}
}

// testNoCanaryText fails t when text holds a corpus canary.
func testNoCanaryText(t *testing.T, text string) {
	t.Helper()
	noCanary(t, answer{text: text, structured: map[string]any{}})
}

// TestRevealAnswers: the canary elicit-seed's user submitted is in no
// answer by default — not the frames of tail, call or the frame resource
// — and shows in the frames only with --reveal-answers, never in the
// ledger; --redact-answers still hides it then.
func TestRevealAnswers(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed")
	const id = "tuitest-elicit-seed"
	frames := func(cs *mcp.ClientSession) (string, string) {
		tail := call(t, cs, "tail", map[string]any{"session": id, "what": "records", "after_seq": 0, "count": 100, "timeout_s": 5})
		if tail.isError || tail.structured["stopped"] != "ended" {
			t.Fatalf("tail of an ended session: %v %q", tail.structured, tail.text)
		}
		var all strings.Builder
		all.WriteString(tail.text)
		for _, f := range pages(t, cs, "tail", map[string]any{"session": id, "what": "records", "after_seq": 0, "count": 100, "timeout_s": 5}, "frames", 16<<10) {
			b, _ := json.Marshal(f)
			all.Write(b)
			whole, err := read(t, cs, f.(map[string]any)["uri"].(string))
			if err != nil {
				t.Fatal(err)
			}
			all.WriteString(whole)
		}
		ledger := call(t, cs, "ledger", map[string]any{"session": id})
		b, _ := json.Marshal(ledger.structured)
		return all.String(), ledger.text + string(b)
	}
	got, ledger := frames(connect(t, state))
	testbin.NoCanary(t, "CANARY", "the frames by default", got)
	testbin.NoCanary(t, "CANARY", "the ledger", ledger)

	got, ledger = frames(connect(t, state, "--reveal-answers"))
	if !strings.Contains(got, "CANARY") {
		t.Error("--reveal-answers: no frame shows the submitted value")
	}
	testbin.NoCanary(t, "CANARY", "the ledger with --reveal-answers", ledger)

	got, _ = frames(connect(t, state, "--reveal-answers", "--redact-answers"))
	testbin.NoCanary(t, "CANARY", "the frames with --reveal-answers --redact-answers", got)
}
