//go:build unix

package replay_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReplayServerHangs replays against a server that reads and never
// answers, and ignores SIGTERM: replay gives up after --timeout, says so,
// exits 1, and the server is gone (killed) when replay has exited.
func TestReplayServerHangs(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	o := runReplay(t, recording(t, false), "--timeout", "1s", "--", bins.stubborn, "-pidfile", pidfile, "-ignore", "-hold")
	if o.code != 1 || !strings.Contains(o.stderr, "no answer from the server in 1s: timed out") {
		t.Errorf("replay exited %d, want 1 with the timeout on stderr\nstderr:\n%s", o.code, o.stderr)
	}
	if o.duration > 20*time.Second {
		t.Errorf("replay took %v to give up on a hung server (--timeout 1s)", o.duration)
	}
	checkGone(t, pidfile)
}

// TestReplayServerCrashes replays against a server that reads the first
// request and exits 3 without answering: a clear error naming its status.
func TestReplayServerCrashes(t *testing.T) {
	t.Parallel()
	o := runReplay(t, recording(t, false), "--", "/bin/sh", "-c", "read line; exit 3")
	want := "the server is gone (it exited with status 3)"
	if o.code != 1 || !strings.Contains(o.stderr, want) {
		t.Errorf("replay exited %d, want 1 with %q on stderr\nstderr:\n%s", o.code, want, o.stderr)
	}
}

// checkGone fails when the process whose pid is in pidfile still exists.
func checkGone(t *testing.T, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the server wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server (pid %d) still runs after replay exited (kill 0: %v)", pid, err)
	}
}
