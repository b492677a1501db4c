//go:build unix

package e2e_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// margin is how long past its deadline a step may take on a loaded machine.
const margin = 15 * time.Second

// proxyRun is a running mcptrail whose stdout the test reads.
type proxyRun struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser // nil when stdin is /dev/null
	stdout io.ReadCloser
	stderr *testbin.Buffer
	done   chan struct{} // closed when cmd.Wait returned
}

// startProxy starts mcptrail with args; with openStdin its stdin is a pipe
// the test holds open, else /dev/null.
func startProxy(t *testing.T, openStdin bool, args ...string) *proxyRun {
	t.Helper()
	p := &proxyRun{cmd: exec.Command(bins.mcptrail, args...), stderr: &testbin.Buffer{}, done: make(chan struct{})}
	p.cmd.Stderr = p.stderr
	var err error
	if openStdin {
		if p.stdin, err = p.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if p.stdout, err = p.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if p.stdin != nil {
			p.stdin.Close()
		}
	})
	return p
}

// readReady reads the server's "ready\n" through the proxy.
func (p *proxyRun) readReady(t *testing.T) {
	t.Helper()
	line, err := bufio.NewReader(io.LimitReader(p.stdout, 6)).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v; stderr %q", line, err, p.stderr.String())
	}
}

// wait waits up to within for mcptrail to exit and returns its status.
func (p *proxyRun) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("mcptrail still running after %v; stderr %q", within, p.stderr.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// serverPid reads the pid the stubborn server wrote to file.
func serverPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// waitGone polls, up to within, until process pid no longer runs (it does
// not exist, or it is a zombie nobody reaped yet).
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) || zombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server pid %d still running after %v (kill 0: %v)", pid, within, err)
		}
		time.Sleep(20 * time.Millisecond) // polling an external process
	}
}

// zombie reports whether /proc says pid has exited but is not reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	i := strings.LastIndexByte(string(b), ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// checkEnded reads the capture, checks it ends with an end record and
// returns its notes and the bytes of s2c frames it holds.
func checkEnded(t *testing.T, path string) ([]string, []capture.Record, int) {
	t.Helper()
	_, recs, dmg := readCapture(t, path)
	if dmg.Torn || dmg.Corrupt > 0 {
		t.Errorf("capture damaged: %+v", dmg)
	}
	if len(recs) == 0 || recs[len(recs)-1].Type != capture.TypeEnd {
		t.Fatalf("capture does not end with an end record")
	}
	return notes(recs), recs, len(framesByDir(t, recs)[capture.S2C])
}

func noteText(recs []capture.Record, kind string) string {
	for _, r := range recs {
		if r.Type == capture.TypeNote && r.Note == kind {
			return r.Text
		}
	}
	return ""
}

// TestClientGone: a client that reads a little and leaves ends the session
// promptly (it ran forever and captured gigabytes), with notes saying so,
// and nothing the server wrote afterwards is recorded.
func TestClientGone(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		openStdin bool
		server    []string
		read      int // bytes the client reads before it leaves
		wantCode  int
		wantWhy   string // in the client-gone note
		wantNotes []string
	}{
		{"yes, stdin open: EPIPE", true, []string{"-flood"}, 10, 143, "broken pipe",
			[]string{"client-gone", "signal:SIGTERM", "server-exit:SIGTERM"}},
		{"yes, stdin closed", false, []string{"-flood"}, 10, 143, "",
			[]string{"client-closed", "client-gone", "signal:SIGTERM", "server-exit:SIGTERM"}},
		{"quiet server, stdin closed", false, []string{"-ready", "-hold"}, 6, 143, "closed our stdin",
			[]string{"client-closed", "client-gone", "signal:SIGTERM", "server-exit:SIGTERM"}},
		{"quiet server ignoring SIGTERM", false, []string{"-ready", "-hold", "-ignore"}, 6, 137, "closed our stdin",
			[]string{"client-closed", "client-gone", "signal:SIGTERM", "signal:SIGKILL", "server-exit:SIGKILL"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			capt, pidfile := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "pid")
			args := append([]string{"--capture", capt, "--kill-after", "500ms", "--", bins.stubborn, "-pidfile", pidfile}, tc.server...)
			p := startProxy(t, tc.openStdin, args...)
			if _, err := io.ReadFull(p.stdout, make([]byte, tc.read)); err != nil {
				t.Fatalf("reading %d bytes: %v", tc.read, err)
			}
			pid := serverPid(t, pidfile)
			p.stdout.Close()
			code := p.wait(t, 500*time.Millisecond+margin)
			waitGone(t, pid, margin)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			got, recs, s2c := checkEnded(t, capt)
			// A quiet server's client is gone because it closed our stdin, so
			// client-closed must be there. With a flood, EPIPE may end the
			// session before the stdin reader sees EOF: then it is optional.
			closed := slices.Contains(got, "client-closed")
			if tc.wantWhy == "closed our stdin" && !closed {
				t.Errorf("notes %q lack client-closed", got)
			}
			want := tc.wantNotes
			if !closed {
				want = slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "client-closed" })
			}
			got = slices.DeleteFunc(got, func(s string) bool { return s == "discarded" })
			if diff := cmp.Diff(want, sortClosed(got)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if why := noteText(recs, capture.NoteClientGone); !strings.Contains(why, tc.wantWhy) {
				t.Errorf("client-gone note %q lacks %q", why, tc.wantWhy)
			}
			// What crossed before the client left: a pipe's worth and one
			// relay chunk, not the flood that followed.
			if s2c > 1<<20 {
				t.Errorf("capture holds %d bytes of server output, want at most 1 MiB", s2c)
			}
		})
	}
}

// sortClosed moves client-closed to the front: it races the first notes.
func sortClosed(notes []string) []string {
	if i := slices.Index(notes, "client-closed"); i > 0 {
		notes = slices.Insert(slices.Delete(notes, i, i+1), 0, "client-closed")
	}
	return notes
}

// TestStopEscalation: a server that ignores SIGTERM kept mcptrail waiting
// forever; now it is killed after --kill-after, or at once on a second
// signal.
func TestStopEscalation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		killAfter time.Duration
		signals   []syscall.Signal
	}{
		{"killed after the grace period", time.Second, []syscall.Signal{syscall.SIGTERM}},
		{"second signal kills at once", time.Hour, []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			capt, pidfile := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "pid")
			p := startProxy(t, true, "--capture", capt, "--kill-after", tc.killAfter.String(), "--",
				bins.stubborn, "-pidfile", pidfile, "-ready", "-ignore", "-hold")
			p.readReady(t)
			pid := serverPid(t, pidfile)
			sent := time.Now()
			for _, sig := range tc.signals {
				if err := p.cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
			}
			within := margin
			if len(tc.signals) == 1 {
				within += tc.killAfter
			}
			code := p.wait(t, within)
			took := time.Since(sent)
			if code != 137 {
				t.Errorf("exit status %d, want 137 (the server's SIGKILL)", code)
			}
			if len(tc.signals) == 1 && took < tc.killAfter {
				t.Errorf("exited after %v, before the %v grace period", took, tc.killAfter)
			}
			waitGone(t, pid, margin)
			got, recs, _ := checkEnded(t, capt)
			if n := len(got); n < 3 || got[n-2] != "signal:SIGKILL" || got[n-1] != "server-exit:SIGKILL" {
				t.Errorf("notes %q; want a passed-on signal, then signal:SIGKILL and server-exit:SIGKILL", got)
			}
			if !strings.HasPrefix(got[0], "signal:SIG") || got[0] == "signal:SIGKILL" {
				t.Errorf("first note %q, want the signal passed on", got[0])
			}
			t.Logf("killed: %s", noteText(recs[len(recs)-3:], capture.NoteSignal))
		})
	}
}

// TestKilledProxyServerSeesEOF is what happens on macOS, where there is no
// parent-death signal, shown here with a server that is a grandchild (sh
// does not pass the parent-death signal on): when mcptrail is killed, the
// server's stdin reaches EOF and a server that exits on EOF exits.
func TestKilledProxyServerSeesEOF(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	p := startProxy(t, true, "--no-capture", "--", "sh", "-c", `"$0" -pidfile "$1" -ready; true`, bins.stubborn, pidfile)
	p.readReady(t)
	pid := serverPid(t, pidfile)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(t, margin)
	waitGone(t, pid, margin)
}

// TestOrderlyClose: a client that closes both ends at once, as SDK clients
// do, is not "gone" to a server that exits at EOF within the grace period:
// no signal, the server's own status.
func TestOrderlyClose(t *testing.T) {
	t.Parallel()
	capt := filepath.Join(t.TempDir(), "c.jsonl")
	p := startProxy(t, true, "--capture", capt, "--", bins.stubborn, "-ready")
	p.readReady(t)
	p.stdin.Close()
	p.stdout.Close()
	if code := p.wait(t, margin); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	got, _, _ := checkEnded(t, capt)
	if diff := cmp.Diff([]string{"client-closed", "server-exit:0"}, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
