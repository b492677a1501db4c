package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// term is a program running in a detached tmux session of its own server.
type term struct {
	t    testing.TB
	sock string
}

// startTerm runs argv in a w×h tmux window with env added to its
// environment. The server is killed when the test ends.
func startTerm(t testing.TB, w, h int, env []string, argv ...string) *term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("", "mt-tmux")
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, sock: filepath.Join(dir, "s")}
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

// screen is what the terminal shows now, as text.
func (tm *term) screen() string {
	out, err := exec.Command("tmux", "-S", tm.sock, "capture-pane", "-p", "-t", "t").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// keys types keys (tmux key names: Enter, Escape, l, q ...).
func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	args := append([]string{"-S", tm.sock, "send-keys", "-t", "t"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// waitFor polls the screen until re matches it and returns how long that
// took; it fails the test after timeout, showing the screen.
func (tm *term) waitFor(re string, timeout time.Duration) time.Duration {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	start := time.Now()
	for {
		s := tm.screen()
		if rx.MatchString(s) {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			tm.t.Fatalf("after %v the terminal does not show %q:\n%s", timeout, re, s)
		}
		time.Sleep(20 * time.Millisecond) // polling tmux's screen, an external process
	}
}

// exited reports whether the program (and so the tmux server) is gone.
func (tm *term) exited() bool {
	return exec.Command("tmux", "-S", tm.sock, "has-session", "-t", "t").Run() != nil
}
