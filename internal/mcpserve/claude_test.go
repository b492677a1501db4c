//go:build unix

package mcpserve_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestClaudeCodeAdd: the set-up docs/mcp.md gives, `claude mcp add
// mcptrail -- mcptrail mcp`, and the same server behind the proxy
// (`mcptrail --label self -- mcptrail mcp`): Claude Code's `claude mcp
// list` shows both connected, and the session its health check left in
// the capture checks clean under the default rules.
func TestClaudeCodeAdd(t *testing.T) {
	t.Parallel()
	claude := testbin.NodeBin(t, "claude")
	home := t.TempDir()
	state := stateWith(t, "errors")
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, claude, args...)
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
			"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_STATE_HOME="+filepath.Join(home, ".state"))
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("mcp", "add", "mcptrail", "-e", "MCPTRAIL_HOME="+state, "--", mcptrail, "mcp")
	run("mcp", "add", "self", "-e", "MCPTRAIL_HOME="+state, "--", mcptrail, "--label", "self", "--", mcptrail, "mcp")
	list := run("mcp", "list")
	if !strings.Contains(list, "mcptrail: ") || !strings.Contains(list, "self: ") || strings.Count(list, "Connected") != 2 {
		t.Fatalf("claude mcp list did not connect both:\n%s", list)
	}
	var rows []map[string]any
	cli(t, state, &rows, "sessions", "--json", "--label", "self")
	if len(rows) == 0 {
		t.Fatal("the proxied health check left no session")
	}
	var rep struct {
		Results []struct {
			Items []map[string]any `json:"items"`
		} `json:"results"`
	}
	cli(t, state, &rep, "check", "-T", "json", rows[0]["id"].(string))
	for _, it := range rep.Results[0].Items {
		t.Errorf("mcptrail mcp under Claude Code's health check raises %v: %v", it["rule"], it["message"])
	}
}
