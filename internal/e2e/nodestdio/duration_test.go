//go:build unix

package nodestdio_test

import (
	"slices"
	"strings"
	"testing"
)

// TestMaxDurationLeavesOutThinkTime: server-everything's form elicitation
// (a legacy elicitation/create in the middle of a tools/call) answered by a
// real TS client whose user thinks 1.5 s. check --max-duration 1s flags the
// tools/call that took that long, not the elicitation/create, which waited
// for a person; --max-elicitation-wait 1s flags that one alone.
func TestMaxDurationLeavesOutThinkTime(t *testing.T) {
	t.Parallel()
	p := elicitForm
	p.ThinkMS = 1500
	caps := runClient(t, p, nil, everything(t)...)
	only := func(extra ...string) []string {
		var out []string
		for _, it := range checkItems(t, caps[0], append([]string{"--rule", "check-max-duration,check-max-elicitation-wait"}, extra...)...) {
			out = append(out, it[0]+": "+it[1])
		}
		return out
	}
	// The initialize waits for node to start the server: on a loaded
	// machine it may pass a second too, and is no concern of this test.
	got := slices.DeleteFunc(only("--max-duration", "1s"), func(s string) bool { return strings.Contains(s, " initialize took ") })
	if len(got) != 1 || !strings.Contains(got[0], "check-max-duration") || !strings.Contains(got[0], "tools/call") {
		t.Errorf("--max-duration 1s: %q, want only the tools/call", got)
	}
	got = only("--max-elicitation-wait", "1s")
	if len(got) != 1 || !strings.Contains(got[0], "check-max-elicitation-wait") || !strings.Contains(got[0], "elicitation/create") {
		t.Errorf("--max-elicitation-wait 1s: %q, want only the elicitation/create", got)
	}
	if got := only("--max-elicitation-wait", "1m", "--max-duration", "1m"); len(got) != 0 {
		t.Errorf("limits of a minute: %q, want none", got)
	}
}
