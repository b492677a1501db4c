package e2e_test

import (
	"path/filepath"
	"testing"
)

// TestKill9TakesServer: kill -9 of mcptrail orphaned the server; on Linux
// the server now gets the parent-death signal (SIGKILL), even one that
// ignores SIGTERM and stdin's EOF.
func TestKill9TakesServer(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	p := startProxy(t, true, "--no-capture", "--", bins.stubborn, "-pidfile", pidfile, "-ready", "-ignore", "-hold")
	p.readReady(t)
	pid := serverPid(t, pidfile)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(t, margin)
	waitGone(t, pid, margin)
}
