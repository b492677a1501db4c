package peers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// matrix is every session the check test runs: each client SDK against
// each server SDK, over stdio and Streamable HTTP, in both eras, plus the
// mcp-go client finding a legacy-only go-sdk server by itself (its
// server/discover probe fails, then it initializes).
func matrix() []session {
	var out []session
	for _, c := range []string{mcpGo, goSDK} {
		for _, srv := range []string{mcpGo, goSDK} {
			for _, tr := range []string{stdio, http} {
				for _, v := range []string{modern, legacy} {
					out = append(out, session{client: c, server: srv, transport: tr, version: v})
				}
			}
		}
	}
	for _, tr := range []string{stdio, http} {
		out = append(out, session{client: mcpGo, server: goSDK, transport: tr, version: legacy, probe: true})
	}
	return out
}

// TestRealPeersCheckClean plays every session of the matrix through the
// real proxy and requires `mcptrail check` with the default rules to exit
// 0 both at the default --fail-on and at --fail-on info: real SDK traffic
// raises no finding at all.
func TestRealPeersCheckClean(t *testing.T) {
	t.Parallel()
	for _, s := range matrix() {
		t.Run(s.name(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			capture := s.run(ctx, t)
			s.checkShape(t, capture)
			if s.version != modern {
				checkNoFindings(t, capture)
				return
			}
			// The mcp-go server asks sampling by MRTR, and the mcp-go client
			// may ask for log messages: deprecated in 2026-07-28, and raised
			// as info findings. Everything else must be clean.
			checkNoFindings(t, capture, "--skip", "deprecated-sampling,deprecated-logging")
			if s.server == mcpGo {
				checkRaises(t, capture, "deprecated-sampling")
			}
		})
	}
}

// checkRaises runs `mcptrail check --rule id --fail-on info` on capture and
// fails t unless it reports rule id.
func checkRaises(t *testing.T, capture, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, "check", "--rule", id, "--fail-on", "info", capture)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err == nil || !bytes.Contains(out, []byte(id)) {
		t.Errorf("mcptrail check --rule %s %s: %v, want it to report %s\nstdout:\n%s", id, capture, err, id, out)
	}
}

// checkNoFindings runs `mcptrail check` on capture with the default rules,
// first at the default --fail-on, then at --fail-on info, and fails t
// with the report unless both exit 0.
func checkNoFindings(t *testing.T, capture string, extra ...string) {
	t.Helper()
	for _, failOn := range [][]string{nil, {"--fail-on", "info"}} {
		args := append(append([]string{"check"}, failOn...), extra...)
		args = append(args, capture)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bins.mcptrail, args...)
		cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+t.TempDir())
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		if err != nil {
			t.Errorf("mcptrail %v: %v, want exit 0 and no findings\nstdout:\n%s\nstderr:\n%s", args, err, stdout.Bytes(), stderr.Bytes())
		}
	}
}

// checkShape makes sure the clean check is not vacuous: the export of
// capture shows the session at s's version(s), and the elicitation the
// script asked for, by MRTR in the modern era (an input-required round)
// and as a server-initiated elicitation/create in the legacy one; and the
// capture holds the rest of the script's traffic (ping in legacy; with the
// mcp-go server progress, list_changed, sampling, a resource, a prompt, a
// paged tools/list and, where the client asked for them, log messages).
func (s session) checkShape(t *testing.T, capture string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "json", capture)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcptrail export -T json: %v", err)
	}
	var x struct {
		Session struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"session"`
		Calls []struct {
			Method string `json:"method"`
			Status string `json:"status"`
		} `json:"calls"`
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if err := json.Unmarshal(out, &x); err != nil {
		t.Fatalf("decoding the export: %v", err)
	}
	want := []string{s.version}
	if s.probe {
		want = []string{modern, legacy} // the failed server/discover probe, then initialize
	}
	if !slices.Equal(x.Session.ProtocolVersions, want) {
		t.Errorf("protocol versions %v, want %v", x.Session.ProtocolVersions, want)
	}
	if len(x.Elicitations) == 0 {
		t.Errorf("no elicitation in the ledger")
	}
	var statuses []string
	for _, c := range x.Calls {
		statuses = append(statuses, c.Method+" "+c.Status)
	}
	mark := "elicitation/create ok"
	if s.version == modern {
		mark = "tools/call input-required"
	}
	if !slices.Contains(statuses, mark) {
		t.Errorf("calls %v: no %q", statuses, mark)
	}
	s.checkTraffic(t, capture)
}

// checkTraffic checks that capture holds the script's other traffic.
func (s session) checkTraffic(t *testing.T, capture string) {
	t.Helper()
	raw, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	if s.version == legacy {
		texts = append(texts, `"ping"`)
	}
	if s.server == mcpGo {
		texts = append(texts, `"notifications/progress"`, `"notifications/tools/list_changed"`, `"sampling/createMessage"`,
			`"resources/read"`, `"prompts/get"`, `"nextCursor"`)
		if s.client == mcpGo || s.version == legacy {
			texts = append(texts, `"notifications/message"`)
		}
	}
	for _, m := range texts {
		if !bytes.Contains(raw, []byte(m)) {
			t.Errorf("no %s in the capture", m)
		}
	}
}

// checkReceived requires capture to hold at least as many frames of each
// notification method as the client received: the proxy forwarded them,
// so the capture has them.
func checkReceived(t *testing.T, capture string, received []string) {
	t.Helper()
	raw, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]int)
	for _, m := range received {
		want[m]++
	}
	for m, n := range want {
		if got := bytes.Count(raw, []byte(`"method":"`+m+`"`)); got < n {
			t.Errorf("the client received %d %s, the capture holds %d", n, m, got)
		}
	}
}
