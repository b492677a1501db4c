package mcpserve_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// TestCorpusSweep serves every transcript of the corpus (the hostile ones
// among them: tampered MRTR state and skills, duplicate responses, null
// and reused ids, invalid frames, load shedding) and calls every tool,
// the resources and the prompt on each under the least budget: each
// answer is bounded, its text escaped, no elicitation answer's value
// shows, and the server stays up.
func TestCorpusSweep(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../../testdata/transcripts/*.transcript.jsonl")
	if err != nil || len(paths) < 20 {
		t.Fatalf("corpus: %v %v", paths, err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".transcript.jsonl"))
	}
	// Ids numbered, so that none is a prefix of another (apps, apps-legacy).
	state := t.TempDir()
	for i, name := range names {
		names[i] = fmt.Sprintf("%02d-%s", i, name)
		writeSession(t, state, i, names[i], tuitest.Capture(t, names[i], tuitest.ReadTranscript(t, tuitest.Transcript(name)), true))
	}
	const budget = 4096
	cs := connect(t, state, "--max-answer", "4096")
	ok := func(a answer, what string) {
		t.Helper()
		if a.isError {
			t.Errorf("%s: error %q", what, a.text)
		}
		if a.size > budget+budget/8 {
			t.Errorf("%s: answer of %d bytes, over the budget %d", what, a.size, budget)
		}
		terminalSafe(t, a.text)
		noCanary(t, a)
	}
	prev := ""
	for _, name := range names {
		id := "tuitest-" + name
		for _, tool := range []string{"session_summary", "calls", "ledger", "check", "tools"} {
			ok(call(t, cs, tool, map[string]any{"session": id}), tool+" "+name)
		}
		for _, c := range pages(t, cs, "calls", map[string]any{"session": id}, "calls", budget) {
			n := c.(map[string]any)["call"]
			for _, f := range pages(t, cs, "call", map[string]any{"session": id, "call": n}, "frames", budget) {
				uri, _ := f.(map[string]any)["uri"].(string)
				if uri == "" {
					if f.(map[string]any)["omitted_bytes"] == nil {
						t.Errorf("%s: a frame row with no uri: %v", name, f)
					}
					continue
				}
				whole, err := read(t, cs, uri)
				if err != nil {
					t.Errorf("%s frame %v: %v", name, f.(map[string]any)["seq"], err)
				}
				testNoCanaryText(t, whole)
			}
			ok(call(t, cs, "call", map[string]any{"session": id, "call": n}), "call "+name)
		}
		began := time.Now()
		ok(call(t, cs, "tail", map[string]any{"session": id, "what": "records", "after_seq": 0, "count": 100, "timeout_s": 5}), "tail "+name)
		if d := time.Since(began); d > 2*time.Second {
			t.Logf("tail %s: %v", name, d)
		}
		if prev != "" {
			ok(call(t, cs, "diff", map[string]any{"a": prev, "b": id}), "diff "+name)
			ok(call(t, cs, "tools", map[string]any{"session": id, "baseline": prev}), "tools baseline "+name)
		}
		report, err := read(t, cs, "mcptrail://sessions/"+id)
		if err != nil {
			t.Errorf("report %s: %v", name, err)
		}
		testNoCanaryText(t, report)
		prev = id
	}
	ok(call(t, cs, "sessions", nil), "sessions")
}
