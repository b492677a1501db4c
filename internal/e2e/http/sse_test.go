package http_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestHTTPSSE records a real session of the 2024-11-05 HTTP+SSE transport
// through the real `mcptrail http`, in both proxy modes: the TypeScript
// SDK v1's SSEClientTransport (testdata/sseclient.mjs) against
// @modelcontextprotocol/server-everything's `sse` server (the SDK's
// SSEServerTransport); and behind the reverse proxy, mcp-remote
// --transport sse-only, driven over stdio by the go-sdk client. The endpoint event keeps its type in the capture
// (and no other event does), the export names the transport and its
// endpoint, the calls pair with their answers from the stream, and the
// 2025-11-25 session raises no finding at all: not the deprecation (the
// transport is current for it), nor an invalid frame for the endpoint
// event or the 202 "Accepted" bodies.
func TestHTTPSSE(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	port := freePort(t)
	srv := exec.Command("sh", "-c", `exec node "$0" sse 1>&2`,
		filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	testbin.StartListener(t, srv, stderr, done, regexp.MustCompile(`Server is running on port (\d+)`))
	t.Cleanup(func() { _ = srv.Process.Kill(); <-done })
	server := "http://127.0.0.1:" + strconv.Itoa(port)

	t.Run("reverse", func(t *testing.T) {
		t.Parallel()
		tp := startTap(t, server+"/sse")
		out := runNode(t, dir, "sseclient.mjs", tp.url("/sse"))
		tp.stop(t)
		checkSSESession(t, tp, out, "/message", true, sdkMethods...)
	})
	t.Run("mcp-remote", func(t *testing.T) {
		t.Parallel()
		tp := startTap(t, server+"/sse")
		out := mcpRemoteEcho(t, tp.url("/sse"))
		tp.stop(t)
		// mcp-remote opens more than one stream. The go-sdk client probes
		// with server/discover first (a dual-era client): the 2025 server
		// refuses it and the client goes on with initialize, which is
		// negotiation, not a 2026-07-28 use of the transport.
		checkSSESession(t, tp, []byte(out), "/message", false, "initialize", "tools/call")
	})
	t.Run("forward", func(t *testing.T) {
		t.Parallel()
		tp := startForward(t)
		out := runNode(t, dir, "sseclient.mjs", server+"/sse", "http://"+tp.addr)
		tp.stop(t)
		checkSSESession(t, tp, out, server+"/message", true, sdkMethods...)
	})
}

// sdkMethods are the calls sseclient.mjs makes.
var sdkMethods = []string{"initialize", "tools/list", "tools/call"}

// checkSSESession checks the capture of a session whose client printed
// out: endpoint is the endpoint the export must name, oneStream whether
// the client opened a single event stream, methods the calls that must
// be answered ok.
func checkSSESession(t *testing.T, tp *tap, out []byte, endpoint string, oneStream bool, methods ...string) {
	t.Helper()
	if !strings.Contains(string(out), "Echo: over sse") {
		t.Fatalf("the SDK client did not get its echo:\n%s", out)
	}
	events := 0
	for _, r := range tp.records(t) {
		if r.Type != capture.TypeFrame || r.HTTP == nil || r.HTTP.Event == "" {
			continue
		}
		events++
		if r.HTTP.Event != "endpoint" || r.HTTP.Method != "GET" || !strings.HasPrefix(r.Text, "/message?sessionId=") {
			t.Errorf("frame %d: event %q on %s with data %q, want the endpoint event on the GET", r.Seq, r.HTTP.Event, r.HTTP.Method, r.Text)
		}
	}
	if events == 0 || oneStream && events != 1 {
		t.Errorf("%d frames with an event type, want one endpoint event per stream", events)
	}
	var doc struct {
		Session struct {
			Eras    []string `json:"eras"`
			HTTPSSE *struct {
				Seq      int    `json:"seq"`
				Endpoint string `json:"endpoint"`
			} `json:"http_sse"`
		} `json:"session"`
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
		Calls []struct {
			Method string `json:"method"`
			Status string `json:"status"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(runExport(t, tp.capture), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Session.HTTPSSE; s == nil || s.Endpoint != endpoint || s.Seq == 0 {
		t.Errorf("session.http_sse %+v, want the endpoint %s", s, endpoint)
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings %+v, want none in a 2025 session", doc.Findings)
	}
	got := map[string]string{}
	for _, c := range doc.Calls {
		got[c.Method] = c.Status
	}
	for _, m := range methods {
		if got[m] != "ok" {
			t.Errorf("calls %v: %s is not answered ok", got, m)
		}
	}
	if !slices.Contains(doc.Session.Eras, "legacy") {
		t.Errorf("eras %v, want legacy", doc.Session.Eras)
	}
}

// mcpRemoteEcho runs mcp-remote URL --transport sse-only as a stdio server
// (HOME in the temp dir, where it keeps its auth state), has the go-sdk
// client call echo through it, and returns the echo's text.
func mcpRemoteEcho(t *testing.T, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(testbin.NodeBin(t, "mcp-remote"), url, "--transport", "sse-only")
	home := t.TempDir()
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); strings.ToUpper(k) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_USE_ENV_PROXY", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	stderr := new(testbin.Buffer)
	cmd.Stderr = stderr
	c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "mcptrail-e2e-mcp-remote-host", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &sdkmcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting through mcp-remote: %v\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "over sse"}})
	if err != nil {
		t.Fatalf("tools/call echo through mcp-remote: %v\n%s", err, stderr.String())
	}
	if err := cs.Close(); err != nil {
		t.Logf("closing mcp-remote: %v", err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Fatalf("echo through mcp-remote returned no text: %+v", res.Content)
	return ""
}
