package replay_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// deployCalls call the deploy tool of sdkpeer.VariantParamHeader, whose
// env argument travels in Mcp-Param-Env too: a plain value and one that
// must be base64-sentinel encoded.
func deployCalls() []*mcp.CallToolParams {
	return []*mcp.CallToolParams{
		{Name: "deploy", Arguments: map[string]any{"service": "billing", "env": "staging"}},
		{Name: "deploy", Arguments: map[string]any{"service": "billing", "env": "été"}},
	}
}

// recordStdioCalls records a 2026-07-28 go-sdk client session making
// calls with `mcptrail --capture X -- sdkserver -variant param-header`
// and returns X.
func recordStdioCalls(t *testing.T, calls []*mcp.CallToolParams) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "stdio.jsonl")
	stderr := new(testbin.Buffer)
	cmd := exec.Command(bins.mcptrail, "--capture", path, "--", bins.sdkserver, "-variant", sdkpeer.VariantParamHeader)
	cmd.Stderr = stderr
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+dir)
	client := mcp.NewClient(&mcp.Implementation{Name: "replay-e2e-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.Bytes())
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	for _, call := range calls {
		if res, err := cs.CallTool(ctx, call); err != nil || res.IsError {
			t.Fatalf("calling %s: %v %+v", call.Name, err, res)
		}
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v\n%s", err, stderr.Bytes())
	}
	return path
}

// TestReplayHTTPParamHeader replays calls of a tool whose argument is
// annotated x-mcp-header against the go-sdk's HTTP server, which rejects
// a tools/call without its Mcp-Param-* header (400 -32020): a recording
// made over HTTP (replay sends the headers the capture kept) and one made
// over stdio (replay derives them from the tool's schema and the
// arguments, base64-sentinel encoding included) replay with no difference.
func TestReplayHTTPParamHeader(t *testing.T) {
	t.Parallel()
	recordings := map[string]func(t *testing.T) string{
		"http": func(t *testing.T) string {
			return recordHTTPCalls(t, serveHTTP(t, false, sdkpeer.VariantParamHeader), "2026-07-28", deployCalls())
		},
		"stdio": func(t *testing.T) string { return recordStdioCalls(t, deployCalls()) },
	}
	for name, rec := range recordings {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := runReplay(t, rec(t), "--slower-than", "0", "--allow-destructive", "--target", serveHTTP(t, false, sdkpeer.VariantParamHeader))
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("replay exited %d with this on stdout, want 0 and nothing\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			got, err := os.ReadFile(o.capture)
			if err != nil {
				t.Fatalf("the new capture: %v", err)
			}
			for _, want := range []string{`"Mcp-Param-Env":"staging"`, `"Mcp-Param-Env":"=?base64?w6l0w6k=?="`} {
				if !strings.Contains(string(got), want) {
					t.Errorf("the new capture has no %s header", want)
				}
			}
		})
	}
}

// TestReplayHTTPNewlyAnnotated replays an HTTP recording made before the
// server annotated deploy's env argument (the capture keeps no
// Mcp-Param-Env header and no x-mcp-header in its tools/list answer)
// against the build that annotates it: replay sends the header the
// server's own tools/list now asks for, as a client of that build would,
// so no call fails with -32020.
func TestReplayHTTPNewlyAnnotated(t *testing.T) {
	t.Parallel()
	rec := recordHTTPCalls(t, serveHTTP(t, false, sdkpeer.VariantParamHeader), "2026-07-28", deployCalls())
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The header is a member of a JSON object in any place of it.
	older := regexp.MustCompile(`"Mcp-Param-Env":"[^"]*",|,"Mcp-Param-Env":"[^"]*"`).ReplaceAll(raw, nil)
	older = bytes.ReplaceAll(older, []byte(`,"x-mcp-header":"Env"`), nil)
	if bytes.Contains(older, []byte("Mcp-Param-Env")) || bytes.Contains(older, []byte("x-mcp-header")) || bytes.Equal(older, raw) {
		t.Fatalf("could not make the older recording:\n%s", older)
	}
	path := filepath.Join(t.TempDir(), "older.jsonl")
	if err := os.WriteFile(path, older, 0o600); err != nil {
		t.Fatal(err)
	}
	o := runReplay(t, path, "--slower-than", "0", "--allow-destructive", "--target", serveHTTP(t, false, sdkpeer.VariantParamHeader))
	// The one difference is the annotation itself.
	if o.code != 1 || strings.Contains(o.stdout, "-32020") || !strings.Contains(o.stdout, "1 changed") ||
		!strings.Contains(o.stdout, `x-mcp-header added: "Env"`) {
		t.Errorf("replay exited %d, want 1 with the annotation as the only change and no -32020:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	got, err := os.ReadFile(o.capture)
	if err != nil {
		t.Fatalf("the new capture: %v (stderr:\n%s)", err, o.stderr)
	}
	for _, want := range []string{`"Mcp-Param-Env":"staging"`, `"Mcp-Param-Env":"=?base64?w6l0w6k=?="`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the new capture has no %s header", want)
		}
	}
}
