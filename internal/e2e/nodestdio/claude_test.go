//go:build unix

package nodestdio_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestClaudeCodeProbe: Claude Code 2.1.328 opens with server/discover; a
// 2025 server refuses it (go-sdk -legacy answers -32022, server-everything
// -32601) and Claude Code falls back to initialize, the spec's
// negotiation. `claude mcp list`, health-checking each server through the
// tap, records sessions whose summary counts no error for the probe and
// which check clean at --fail-on info (Claude Code ends them with SIGINT,
// which the servers exit on). Before, the summary said ERRORS 1.
func TestClaudeCodeProbe(t *testing.T) {
	t.Parallel()
	claude := testbin.NodeBin(t, "claude")
	home, capDir := t.TempDir(), t.TempDir()
	servers := map[string][]string{
		"legacy": {bins.sdkserver, "-legacy"},
		"every":  everything(t),
	}
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, claude, args...)
		cmd.Dir = home
		cmd.Env = env(home)
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	for name, argv := range servers {
		capture := filepath.Join(capDir, name+"-{id}.jsonl")
		run(append([]string{"mcp", "add", name, "--", bins.mcptrail, "--capture", capture, "--"}, argv...)...)
	}
	list := run("mcp", "list")
	for name := range servers {
		if !strings.Contains(list, name+": ") || strings.Count(list, "Connected") != len(servers) {
			t.Fatalf("claude mcp list did not connect %s:\n%s", name, list)
		}
		caps, _ := filepath.Glob(filepath.Join(capDir, name+"-*.jsonl"))
		if len(caps) != 1 {
			t.Fatalf("%s: captures %v, want one", name, caps)
		}
		probes, errs := probeErrors(t, caps[0])
		if probes != 1 || errs != 0 {
			t.Errorf("%s: summary has %d server/discover calls with %d errors, want 1 with none", name, probes, errs)
		}
		if got := findings(t, caps[0]); len(got) != 0 {
			t.Errorf("%s: findings %v, want none", name, got)
		}
	}
}

// probeErrors returns the summary's count and errors of server/discover
// in `mcptrail export -T json capture`, after making sure the probe was
// refused and followed by initialize.
func probeErrors(t *testing.T, capture string) (count, errs int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "json", capture)
	cmd.Env = env(t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcptrail export: %v", err)
	}
	var doc struct {
		Calls []struct {
			Method string `json:"method"`
			Status string `json:"status"`
		} `json:"calls"`
		Summary struct {
			Methods []struct {
				Name   string `json:"name"`
				Count  int    `json:"count"`
				Errors int    `json:"errors"`
			} `json:"methods"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Calls) < 2 || doc.Calls[0].Method != "server/discover" || doc.Calls[0].Status != "error" || doc.Calls[1].Method != "initialize" {
		t.Fatalf("%s: calls %+v, want a refused server/discover, then initialize", capture, doc.Calls)
	}
	for _, m := range doc.Summary.Methods {
		if m.Name == "server/discover" {
			return m.Count, m.Errors
		}
	}
	return 0, 0
}
