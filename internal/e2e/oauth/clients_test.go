package oauth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// route is how a client reaches the server.
type route struct {
	proxy  string // forward proxy URL, "" for direct
	caFile string // PEM file the client trusts beside the system roots, "" for none
}

// oauthClient is one real OAuth client: run completes the flow against
// serverURL, calls whoami and returns the tool's text.
type oauthClient struct {
	name string
	run  func(t *testing.T, dir, serverURL string, r route) string
}

// clients are the three real clients of the acceptance list.
func clients() []oauthClient {
	return []oauthClient{
		{"sdk-v1", func(t *testing.T, dir, u string, r route) string { return runScript(t, dir, "sdk-v1.mjs", u, r) }},
		{"sdk-v2", func(t *testing.T, dir, u string, r route) string { return runScript(t, dir, "sdk-v2.mjs", u, r) }},
		{"mcp-remote", runMCPRemote},
	}
}

// runScript runs `node SCRIPT SERVER_URL [PROXY_URL]` from dir and returns
// the tool text it printed.
func runScript(t *testing.T, dir, script, serverURL string, r route) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := []string{filepath.Join(dir, script), serverURL}
	if r.proxy != "" {
		args = append(args, r.proxy)
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = nodeEnv(r)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstdout:\n%s\nstderr:\n%s", script, err, stdout.Bytes(), stderr.Bytes())
	}
	var out struct {
		Tool    string `json:"tool"`
		IsError bool   `json:"isError"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &out); err != nil {
		t.Fatalf("node %s printed %q, not one JSON line: %v\nstderr:\n%s", script, stdout.Bytes(), err, stderr.Bytes())
	}
	if out.IsError {
		t.Fatalf("node %s: whoami answered an error: %q", script, out.Tool)
	}
	return out.Tool
}

// runMCPRemote starts `mcp-remote SERVER_URL [--enable-proxy]` as a stdio
// server, with browser.mjs as its browser, and calls whoami through it with
// a go-sdk client.
func runMCPRemote(t *testing.T, dir, serverURL string, r route) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("mcp-remote opens its browser through xdg-open's BROWSER here; other systems have other openers")
	}
	browser := filepath.Join(dir, "browser.sh")
	sh := "#!/bin/sh\nexec node '" + filepath.Join(dir, "browser.mjs") + "' \"$1\"\n"
	if err := os.WriteFile(browser, []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{filepath.Join(dir, "node_modules", "mcp-remote", "dist", "proxy.js"), serverURL}
	if r.proxy != "" {
		args = append(args, "--enable-proxy")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = append(nodeEnv(r), "BROWSER="+browser, "MCP_REMOTE_CONFIG_DIR="+t.TempDir())
	if r.proxy != "" {
		cmd.Env = append(cmd.Env, "HTTP_PROXY="+r.proxy, "HTTPS_PROXY="+r.proxy, "NO_PROXY=", "BROWSER_PROXY="+r.proxy)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "mcptrail-e2e-mcp-remote-host", Version: "1.0.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting to mcp-remote: %v\nstderr:\n%s", err, stderr.Bytes())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		cs.Close()
		t.Fatalf("calling whoami through mcp-remote: %v\nstderr:\n%s", err, stderr.Bytes())
	}
	if err := cs.Close(); err != nil {
		t.Logf("closing mcp-remote: %v", err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("whoami through mcp-remote: %+v", res)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("whoami through mcp-remote answered %T", res.Content[0])
	}
	return text.Text
}

// nodeEnv is the environment for a Node client: this process's, without
// proxy settings or a desktop (so nothing opens a real browser), plus the
// CA file of r.
func nodeEnv(r route) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_USE_ENV_PROXY", "NODE_EXTRA_CA_CERTS",
			"DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "BROWSER":
			continue
		}
		out = append(out, kv)
	}
	if r.caFile != "" {
		out = append(out, "NODE_EXTRA_CA_CERTS="+r.caFile)
	}
	return out
}
