package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// everything runs server-everything over Streamable HTTP on a free port
// and returns its MCP endpoint; it is killed at cleanup.
func everything(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command("node", filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "server-everything", "dist", "index.js"), "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port, "HOME="+t.TempDir())
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	got := testbin.StartListener(t, cmd, stderr, done, regexp.MustCompile(`listening on port (\d+)`))
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	if got != port {
		t.Fatalf("server-everything listens on port %s, not %s", got, port)
	}
	return "http://127.0.0.1:" + port + "/mcp"
}

// nodeScripts returns a fresh directory holding testdata/*.mjs beside a
// node_modules link to the real Node peers, so the scripts' bare imports
// resolve.
func nodeScripts(t *testing.T) string {
	t.Helper()
	return testbin.NodeScripts(t, testbin.NodeModules(t), filepath.Join("testdata", "*.mjs"))
}

// runNode runs `node dir/script args...` with HOME and the XDG
// directories in the temp dir and no proxy settings, and returns its
// stdout.
func runNode(t *testing.T, dir, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	home := t.TempDir()
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); strings.ToUpper(k) {
		case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "NODE_USE_ENV_PROXY", "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s %v: %v\nstdout:\n%s\nstderr:\n%s", script, args, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// runCheck runs `mcptrail check --fail-on info path` and returns its exit
// code and output.
func runCheck(t *testing.T, path string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bins.mcptrail, "check", "--fail-on", "info", path).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	t.Fatalf("mcptrail check: %v\n%s", err, out)
	return 0, ""
}

// TestCancelledCallHTTP: the TS SDK v1 and v2 clients abort a long
// tools/call of server-everything (AbortSignal: notifications/cancelled);
// the server's SSE stream for the POST then ends HTTP 200 without a
// JSON-RPC response, as a cancelled request is owed none. Through `mcptrail http --target` and
// `--forward`, check --fail-on info passes and the call is cancelled.
func TestCancelledCallHTTP(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	for _, sdk := range []string{"v1", "v2"} {
		for _, route := range []string{"target", "forward"} {
			t.Run(sdk+"/"+route, func(t *testing.T) {
				t.Parallel()
				server := everything(t)
				var tp *tap
				var out []byte
				if route == "target" {
					tp = startTap(t, server)
					out = runNode(t, dir, "cancel.mjs", sdk, tp.url("/mcp"))
				} else {
					tp = startForward(t, "--allow-origin", strings.TrimSuffix(server, "/mcp"))
					out = runNode(t, dir, "cancel.mjs", sdk, server, "http://"+tp.addr)
				}
				tp.stop(t)
				var got struct{ Slow, Quick string }
				if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil {
					t.Fatalf("cancel.mjs printed %q: %v", out, err)
				}
				if got.Slow != "aborted" || got.Quick != "Echo: quick" {
					t.Fatalf("client saw %+v, want the slow call aborted and the quick one answered", got)
				}
				if code, text := runCheck(t, tp.capture); code != 0 {
					t.Errorf("check --fail-on info exited %d on a correctly cancelled call:\n%s", code, text)
				}
				var slow []string
				for _, c := range exportCalls(t, runExport(t, tp.capture)) {
					if c["method"] == "tools/call" && c["target"] == "trigger-long-running-operation" {
						slow = append(slow, c["status"].(string))
					}
				}
				if len(slow) != 1 || slow[0] != "cancelled" {
					t.Errorf("slow calls %v, want one cancelled", slow)
				}
			})
		}
	}
}
