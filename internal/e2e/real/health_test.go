package real_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// The AI clients whose `mcp` commands connect to a server offline: Claude
// Code's `claude mcp list` and Gemini CLI's `gemini mcp list` each start
// the configured server and health-check it. (Codex CLI's `codex mcp
// list` and `codex mcp get` only print the configuration: they never
// start the server, so there is no session to record.)
const (
	claude = "claude"
	gemini = "gemini"
)

// TestHealthCheck records the health check of Claude Code and Gemini CLI
// through `mcptrail --capture ... -- SERVER` with each stdio server, and
// requires the client to report the server connected and `mcptrail
// check --fail-on info` to raise nothing on what it recorded.
func TestHealthCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []string{claude, gemini} {
		for _, srv := range []string{everything, tsV2Server, goSDKLegacy, mcpGo} {
			if c == gemini && srv == goSDKLegacy {
				// Gemini CLI 0.61 asks for 2025-06-18, the legacy go-sdk
				// server offers 2025-11-25 only, and the client hangs up,
				// as the version negotiation says it should: no session.
				continue
			}
			s := session{client: c, server: srv, transport: stdio}
			t.Run(c+"_"+srv, func(t *testing.T) {
				t.Parallel()
				caps := s.healthCheck(t)
				if v := protocolVersions(t, caps); len(v) == 0 {
					t.Errorf("the capture shows no protocol version: the health check never reached the server")
				}
				var rules []string
				for _, d := range allowed[s] {
					rules = append(rules, d.rule)
				}
				checkClean(t, caps, rules)
			})
		}
	}
}

// healthCheck configures s's server behind mcptrail in s's client, runs
// its `mcp list` and returns the directory of the captures.
func (s session) healthCheck(t *testing.T) string {
	t.Helper()
	bin := testbin.NodeBin(t, s.client)
	dir := nodeDir(t)
	caps := filepath.Join(dir, "captures")
	if err := os.Mkdir(caps, 0o700); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "project")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--capture", filepath.Join(caps, "{pid}.jsonl"), "--"}, s.stdioServer(dir)...)
	if s.client == claude {
		runIn(t, dir, work, bin, append([]string{"mcp", "add", "sweep", "--", bins.mcptrail}, args...)...)
	} else {
		// gemini mcp add drops the "--" of the command line, and the CLI
		// starts no server of a folder it does not trust: its settings
		// say both, and give the health check 30 s instead of its 5 s
		// (a Node server behind the tap takes longer on a loaded machine).
		settings := map[string]any{
			"security":   map[string]any{"folderTrust": map[string]any{"enabled": false}},
			"mcpServers": map[string]any{"sweep": map[string]any{"command": bins.mcptrail, "args": args, "timeout": 30000}},
		}
		b, err := json.Marshal(settings)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "home", ".gemini"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "home", ".gemini", "settings.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := runIn(t, dir, work, bin, "mcp", "list")
	if !strings.Contains(out, "Connected") || strings.Contains(out, "Failed") {
		t.Fatalf("%s mcp list does not report the server connected:\n%s", s.client, out)
	}
	return caps
}

// runIn runs name args... in work with childEnv(dir) and returns its
// combined output; it fails t when the command fails.
func runIn(t *testing.T, dir, work, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = work
	cmd.Env = childEnv(dir)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out)
	}
	return string(out)
}
