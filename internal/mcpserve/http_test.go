package mcpserve_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// startHTTP starts `mcptrail mcp --http 127.0.0.1:0 args...` over state
// and returns its URL; it is stopped at the test's end.
func startHTTP(t *testing.T, state string, args ...string) string {
	t.Helper()
	cmd := exec.Command(mcptrail, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	var stderr testbin.Buffer
	done := make(chan error, 1)
	addr := testbin.StartListener(t, cmd, &stderr, done, regexp.MustCompile(`listening on (http://\S+)`))
	t.Cleanup(func() { testbin.StopListener(t, cmd, &stderr, done) })
	return addr
}

// TestHTTP serves the captures over Streamable HTTP: the go-sdk client
// lists the tools and gets the answers it gets over stdio; the request
// policy of the other listeners refuses a foreign Host, a foreign browser
// Origin and a POST that is not JSON, and admits a loopback Origin and an
// --allow-origin one.
func TestHTTP(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed", "errors")
	url := startHTTP(t, state, "--allow-origin", "https://app.example")
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcptrail-http", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 10 {
		t.Fatalf("tools over HTTP: %v %v", list, err)
	}
	stdio := connect(t, state)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{{"sessions", nil}, {"ledger", map[string]any{"session": "tuitest-elicit-seed"}}, {"check", map[string]any{"session": "tuitest-errors"}},
		{"diff", map[string]any{"a": "tuitest-errors", "b": "tuitest-elicit-seed"}}} {
		overHTTP, overStdio := call(t, cs, tc.tool, tc.args), call(t, stdio, tc.tool, tc.args)
		if d := cmp.Diff(overStdio.structured, overHTTP.structured); d != "" || overHTTP.text != overStdio.text {
			t.Errorf("%s over HTTP and stdio differ:\n%s", tc.tool, d)
		}
	}

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, tc := range []struct {
		name, host, origin, ctype string
		want                      int
	}{
		{"foreign host", "evil.example", "", "application/json", http.StatusForbidden},
		{"foreign origin", "", "https://evil.example", "application/json", http.StatusForbidden},
		{"text/plain post", "", "", "text/plain", http.StatusUnsupportedMediaType},
		{"loopback origin", "", "http://localhost:6274", "application/json", http.StatusOK},
		{"allowed origin", "", "https://app.example", "application/json", http.StatusOK},
	} {
		req, err := http.NewRequest("POST", url, strings.NewReader(init))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", tc.ctype)
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}
