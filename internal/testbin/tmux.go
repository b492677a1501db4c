package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Term is a program running in a detached tmux session of its own
// server, for tests that read what a terminal user sees.
type Term struct {
	t    testing.TB
	sock string
}

// StartTerm runs argv in a w×h tmux window with env added to its
// environment (TERM=xterm-256color first). The server is killed when the
// test ends. Without tmux the test skips, or fails under CI=true (.ci/run
// installs it).
func StartTerm(t testing.TB, w, h int, env []string, argv ...string) *Term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed under CI=true; .ci/run installs it")
		}
		t.Skip("skipping: needs tmux (apt-get install tmux)")
	}
	// A short directory of its own: a socket path has a length limit.
	dir, err := os.MkdirTemp("", "mt-tmux")
	if err != nil {
		t.Fatal(err)
	}
	tm := &Term{t: t, sock: filepath.Join(dir, "s")}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	args := []string{"-S", tm.sock, "-f", "/dev/null", "new-session", "-d", "-s", "t",
		"-x", strconv.Itoa(w), "-y", strconv.Itoa(h)}
	for _, e := range append([]string{"TERM=xterm-256color"}, env...) {
		args = append(args, "-e", e)
	}
	args = append(args, argv...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return tm
}

// Screen is what the terminal shows now, as text.
func (tm *Term) Screen() string {
	out, err := exec.Command("tmux", "-S", tm.sock, "capture-pane", "-p", "-t", "t").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// ScreenANSI is what the terminal shows now with its colours and
// attributes, as SGR escape sequences.
func (tm *Term) ScreenANSI() string {
	out, err := exec.Command("tmux", "-S", tm.sock, "capture-pane", "-e", "-p", "-t", "t").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// Keys types keys (tmux key names: Enter, Escape, l, q ...).
func (tm *Term) Keys(keys ...string) {
	tm.t.Helper()
	args := append([]string{"-S", tm.sock, "send-keys", "-t", "t"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// WaitFor polls the screen until re matches it and returns how long that
// took; it fails the test after timeout, showing the screen.
func (tm *Term) WaitFor(re string, timeout time.Duration) time.Duration {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	start := time.Now()
	for {
		s := tm.Screen()
		if rx.MatchString(s) {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			tm.t.Fatalf("after %v the terminal does not show %q:\n%s", timeout, re, s)
		}
		time.Sleep(20 * time.Millisecond) // polling tmux's screen, an external process
	}
}

// Exited reports whether the program (and so the tmux server) is gone.
func (tm *Term) Exited() bool {
	return exec.Command("tmux", "-S", tm.sock, "has-session", "-t", "t").Run() != nil
}

// PanePID is the pid of the program running in the terminal.
func (tm *Term) PanePID() int {
	tm.t.Helper()
	out, err := exec.Command("tmux", "-S", tm.sock, "display-message", "-p", "-t", "t", "#{pane_pid}").Output()
	if err != nil {
		tm.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		tm.t.Fatal(err)
	}
	return pid
}
