package mock_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// terminateAfter is the CommandTransport's TerminateDuration: a close that
// takes this long means a process ignored its stdin closing.
const terminateAfter = 10 * time.Second

// TestGoSDKStdio records each era's go-sdk conversation through the tap
// against sdkserver, then plays it again against `mcptrail mock` of that
// capture, launched through the tap too.
func TestGoSDKStdio(t *testing.T) {
	t.Parallel()
	for _, c := range []conversation{modernConversation(), legacyConversation()} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			dir := t.TempDir()
			recorded, mocked := filepath.Join(dir, "recorded.jsonl"), filepath.Join(dir, "mocked.jsonl")
			server := []string{bins.sdkserver}
			if c.legacy {
				server = append(server, "-legacy")
			}
			want := c.play(ctx, t, stdioThroughTap(t, dir, recorded, server...))
			got := c.play(ctx, t, stdioThroughTap(t, dir, mocked, bins.mcptrail, "mock", recorded))
			compareSessions(t, want, got, recorded, mocked)
			c.askUnrecorded(ctx, t, stdioThroughTap(t, dir, filepath.Join(dir, "unrecorded.jsonl"), bins.mcptrail, "mock", recorded))
		})
	}
}

// askUnrecorded calls a tool the recording never saw, through transport to
// the mock, and checks the documented error.
func (c conversation) askUnrecorded(ctx context.Context, t *testing.T, transport mcp.Transport) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
	if err != nil {
		t.Fatalf("connecting at %s: %v", c.version, err)
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "never-recorded", Arguments: map[string]any{"x": 1}})
	const want = "mcptrail mock: no recorded answer for tools/call never-recorded: expected tools/call "
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("calling a tool the recording never saw: %v, want an error containing %q", err, want)
	}
}

// stdioThroughTap is a transport that runs `mcptrail --capture path --
// argv...` as a stdio client does.
func stdioThroughTap(t *testing.T, home, path string, argv ...string) mcp.Transport {
	cmd := exec.Command(bins.mcptrail, append([]string{"--capture", path, "--"}, argv...)...)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+home)
	stderr := new(testbin.Buffer)
	cmd.Stderr = stderr
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s stderr:\n%s", cmd, stderr.String())
		}
	})
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}
}

// TestGoSDKHTTP records each era's go-sdk conversation through `mcptrail
// http` against an in-process go-sdk Streamable HTTP server, then plays it
// again through `mcptrail http` against `mcptrail mock --http`.
func TestGoSDKHTTP(t *testing.T) {
	t.Parallel()
	for _, c := range []conversation{modernConversation(), legacyConversation()} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			dir := t.TempDir()
			recorded, mocked := filepath.Join(dir, "recorded.jsonl"), filepath.Join(dir, "mocked.jsonl")

			srv := sdkpeer.NewServer(c.legacy)
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
				&mcp.StreamableHTTPOptions{Stateless: !c.legacy})
			ts := httptest.NewServer(h)
			defer ts.Close()
			want := c.playHTTP(ctx, t, dir, ts.URL+"/mcp", recorded)

			m := startListener(t, dir, "mock", "--http", "127.0.0.1:0", recorded)
			got := c.playHTTP(ctx, t, dir, "http://"+m.addr+"/mcp", mocked)
			m.stop(t)
			if !strings.Contains(m.stderr.String(), "the client asked for every recorded request") {
				t.Errorf("the mock's report does not say every request was asked for:\n%s", m.stderr.String())
			}
			compareSessions(t, want, got, recorded, mocked)
		})
	}
}

// playHTTP plays c through `mcptrail http --target target --capture path`.
func (c conversation) playHTTP(ctx context.Context, t *testing.T, home, target, path string) played {
	t.Helper()
	tp := startListener(t, home, "http", "--listen", "127.0.0.1:0", "--target", target, "--capture", path)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("mcptrail http --target %s:\n%s", target, tp.stderr.String())
		}
	})
	p := c.play(ctx, t, &mcp.StreamableClientTransport{Endpoint: "http://" + tp.addr + "/mcp", MaxRetries: -1})
	tp.stop(t)
	return p
}

// compareSessions checks that the client saw the same thing from the real
// server and from the mock, and that the two captures carry the same
// calls and ledger and no finding.
func compareSessions(t *testing.T, want, got played, recorded, mocked string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the client saw: real server (-) vs mock (+):\n%s", diff)
	}
	rx, mx := runExport(t, recorded), runExport(t, mocked)
	if diff := cmp.Diff(rx.Calls, mx.Calls); diff != "" {
		t.Errorf("calls: recorded (-) vs mocked (+):\n%s", diff)
	}
	if len(rx.Elicitations) == 0 {
		t.Errorf("the recorded session has no ledger row")
	}
	if diff := cmp.Diff(rx.Elicitations, mx.Elicitations); diff != "" {
		t.Errorf("ledger: recorded (-) vs mocked (+):\n%s", diff)
	}
	if f := rx.findings(t); len(f) != 0 {
		t.Errorf("findings in the recorded session: %v, want none", f)
	}
	if f := mx.findings(t); len(f) != 0 {
		t.Errorf("findings in the mocked session: %v, want none", f)
	}
}
