package testbin

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// everythingListening matches the line server-everything prints once its
// Streamable HTTP server listens.
var everythingListening = regexp.MustCompile(`listening on port (\d+)`)

// EverythingHTTP runs the real server-everything of NodePackages (the
// TypeScript SDK 1.x, 2025 eras only, one session per initialize) over
// Streamable HTTP on a free loopback port, with HOME and the XDG
// directories in t's temporary directory, and returns its endpoint URL;
// it is killed at cleanup. Without the Node peers it skips t as
// NodeModules does.
func EverythingHTTP(t testing.TB) string {
	t.Helper()
	nm := NodeModules(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close() // server-everything takes its port from PORT only
	cmd := exec.Command("node", filepath.Join(nm, "@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp")
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "PORT="+port, "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	stderr, done := new(Buffer), make(chan error, 1)
	StartListener(t, cmd, stderr, done, everythingListening)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return "http://127.0.0.1:" + port + "/mcp"
}
