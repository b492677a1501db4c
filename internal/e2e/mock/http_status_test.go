package mock_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// negotiate connects a go-sdk client left to negotiate (a server/discover
// probe, then initialize when the server refuses it) through `mcptrail
// http --target target --capture path`, lists the tools, calls echo and
// closes; it returns the version the client settled on and what echo
// answered.
func negotiate(ctx context.Context, t *testing.T, home, target, path string) (string, string) {
	t.Helper()
	tp := startListener(t, home, "http", "--listen", "127.0.0.1:0", "--target", target, "--capture", path)
	client := mcp.NewClient(&mcp.Implementation{Name: "mock-e2e-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + tp.addr + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting through the tap to %s: %v\n%s", target, err, tp.stderr.String())
	}
	version := cs.InitializeResult().ProtocolVersion
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("calling echo: %v %+v", err, res)
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v", err)
	}
	tp.stop(t)
	if text == nil {
		t.Fatalf("echo answered no text: %+v", res.Content)
	}
	return version, text.Text
}

// probeAnswer returns the capture's frame that answers server/discover:
// the line of the s2c frame of the probe's exchange.
func probeAnswer(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if strings.Contains(line, `"dir":"s2c"`) && strings.Contains(line, `Server not initialized`) {
			return line
		}
	}
	t.Fatalf("%s holds no answer to the server/discover probe:\n%s", path, b)
	return ""
}

// TestMockHTTPRefusedProbe: a go-sdk client that negotiates meets the
// real server-everything (2025 eras only), which refuses its
// server/discover probe with HTTP 400 and a JSON-RPC error of null id;
// it falls back to initialize. `mcptrail mock --http` of that capture
// serves the refusal as recorded: HTTP 400 and the body with its null id,
// not a 200 carrying the live id. The client settles on the same version
// and gets the same answer, and both captures hold the same calls.
func TestMockHTTPRefusedProbe(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	recorded, mocked := filepath.Join(dir, "recorded.jsonl"), filepath.Join(dir, "mocked.jsonl")
	wantVersion, wantText := negotiate(ctx, t, dir, testbin.EverythingHTTP(t), recorded)
	rec := probeAnswer(t, recorded)
	if !strings.Contains(rec, `"status":400`) || !strings.Contains(rec, `"id":null`) {
		t.Fatalf("server-everything did not refuse the probe with 400 and a null id:\n%s", rec)
	}

	m := startListener(t, dir, "mock", "--http", "127.0.0.1:0", recorded)
	gotVersion, gotText := negotiate(ctx, t, dir, "http://"+m.addr+"/mcp", mocked)
	m.stop(t)
	if gotVersion != wantVersion || gotText != wantText {
		t.Errorf("the client got %q %q from the mock, want %q %q as from the server", gotVersion, gotText, wantVersion, wantText)
	}
	got := probeAnswer(t, mocked)
	if !strings.Contains(got, `"status":400`) || !strings.Contains(got, `"id":null`) {
		t.Errorf("the mock's answer to the probe is not the recorded 400 with a null id:\n%s", got)
	}
	rx, mx := runExport(t, recorded), runExport(t, mocked)
	if d := cmp.Diff(rx.Calls, mx.Calls); d != "" {
		t.Errorf("calls: recorded (-) vs mocked (+):\n%s", d)
	}
}
