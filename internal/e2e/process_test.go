package e2e_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// runProxy runs mcptrail with args and stdin, and returns its stdout,
// stderr and exit status.
func runProxy(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("running mcptrail: %v", err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// notes returns the capture's notes as "kind[:exit|:signal]".
func notes(recs []capture.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Type != capture.TypeNote {
			continue
		}
		s := r.Note
		switch {
		case r.Exit != nil:
			s += ":" + strconv.Itoa(*r.Exit)
		case r.Signal != "":
			s += ":" + r.Signal
		}
		out = append(out, s)
	}
	return out
}

func TestExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		server    []string
		wantCode  int
		wantNotes []string
	}{
		{"exit 0", []string{bins.fastserver}, 0, []string{"client-closed", "server-exit:0"}},
		{"exit 3", []string{bins.fastserver, "-exit", "3"}, 3, []string{"client-closed", "server-exit:3"}},
		{"killed by SIGTERM", []string{"sh", "-c", "kill -TERM $$"}, 143, []string{"server-exit:SIGTERM"}},
		{"killed by SIGKILL", []string{"sh", "-c", "kill -KILL $$"}, 137, []string{"server-exit:SIGKILL"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			capt := filepath.Join(t.TempDir(), "c.jsonl")
			_, _, code := runProxy(t, nil, "", append([]string{"--capture", capt, "--"}, tc.server...)...)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d", code, tc.wantCode)
			}
			_, recs, _ := readCapture(t, capt)
			got := notes(recs)
			// A server that dies at once races the client's EOF.
			if !slices.Contains(tc.wantNotes, capture.NoteClientClosed) {
				got = slices.DeleteFunc(got, func(s string) bool { return s == capture.NoteClientClosed })
			}
			if diff := cmp.Diff(tc.wantNotes, got); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if last := recs[len(recs)-1]; last.Type != capture.TypeEnd {
				t.Errorf("last record %+v, want end", last)
			}
		})
	}
}

func TestStderrPassthrough(t *testing.T) {
	t.Parallel()
	capt := filepath.Join(t.TempDir(), "c.jsonl")
	const text = "starting up\r\nwarn: \xff odd bytes\n\nno newline at end"
	out, errOut, code := runProxy(t, nil, "", "--capture", capt, "--", bins.fastserver, "-stderr", text)
	if code != 0 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	if errOut != text {
		t.Errorf("stderr = %q, want %q", errOut, text)
	}
	_, recs, _ := readCapture(t, capt)
	var lines []string
	for _, r := range recs {
		if r.Type == capture.TypeStderr {
			lines = append(lines, string(r.Bytes()))
		}
	}
	want := []string{"starting up\r", "warn: \xff odd bytes", "", "no newline at end"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("stderr records (-want +got):\n%s", diff)
	}
}

func TestSignalForwarding(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			capt := filepath.Join(t.TempDir(), "c.jsonl")
			server := []string{bins.fastserver, "-ready", "-trap", "42"}
			if sig == syscall.SIGINT {
				// No trap for SIGINT: the server dies of it.
				server = []string{bins.fastserver, "-ready"}
			}
			cmd := exec.Command(bins.mcptrail, append([]string{"--capture", capt, "--"}, server...)...)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || line != "ready\n" {
				t.Fatalf("first line %q, %v", line, err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			want := 42
			if sig == syscall.SIGINT {
				want = 128 + int(syscall.SIGINT)
			}
			if code := cmd.ProcessState.ExitCode(); code != want {
				t.Errorf("exit status %d, want %d", code, want)
			}
			_, recs, _ := readCapture(t, capt)
			if got := notes(recs); !slices.Contains(got, "signal:"+signame(sig)) {
				t.Errorf("notes %q lack the forwarded %s", got, signame(sig))
			}
		})
	}
}

func signame(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}

func TestCaptureLocation(t *testing.T) {
	t.Parallel()
	const req = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}` + "\n"
	t.Run("default under MCPTRAIL_HOME", func(t *testing.T) {
		t.Parallel()
		home := filepath.Join(t.TempDir(), "state")
		out, _, code := runProxy(t, []string{"MCPTRAIL_HOME=" + home}, req, "--", bins.fastserver)
		if code != 0 || !strings.Contains(out, `"id":1`) {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		sessions := filepath.Join(home, "sessions")
		for _, d := range []string{home, sessions} {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v, %v; want a 0700 directory", d, fi.Mode(), err)
			}
		}
		files, err := capture.SessionFiles(sessions)
		if err != nil || len(files) != 1 {
			t.Fatalf("session files %q, %v; want one", files, err)
		}
		if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want 0600", files[0], fi.Mode(), err)
		}
		h, recs, _ := readCapture(t, files[0])
		if h.Label != "fastserver" || h.SessionID == "" || !strings.Contains(filepath.Base(files[0]), "-fastserver-"+h.SessionID) {
			t.Errorf("header %+v in %s", h, files[0])
		}
		if len(framesByDir(t, recs)[capture.S2C]) == 0 {
			t.Error("no s2c frames captured")
		}
	})
	t.Run("label flag", func(t *testing.T) {
		t.Parallel()
		home := t.TempDir()
		runProxy(t, []string{"MCPTRAIL_HOME=" + home}, req, "--label", "my label", "--", bins.fastserver)
		files, _ := capture.SessionFiles(capture.SessionsDir(home))
		if len(files) != 1 {
			t.Fatalf("files %q", files)
		}
		if h, _, _ := readCapture(t, files[0]); h.Label != "my label" {
			t.Errorf("label %q", h.Label)
		}
	})
	t.Run("no capture", func(t *testing.T) {
		t.Parallel()
		home := t.TempDir()
		out, _, code := runProxy(t, []string{"MCPTRAIL_HOME=" + home}, req, "--no-capture", "--", bins.fastserver)
		if code != 0 || !strings.Contains(out, `"id":1`) {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		entries, err := os.ReadDir(home)
		if err != nil || len(entries) != 0 {
			t.Errorf("state dir has %v (%v), want nothing", entries, err)
		}
	})
}

func TestUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no args prints help to stderr", nil, 2, "Usage:"},
		{"command without --", []string{"node", "x.js"}, 2, "put its command after --"},
		{"both capture flags", []string{"--no-capture", "--capture", "x", "--", "true"}, 2, "cannot be used together"},
		{"server not found", []string{"--no-capture", "--", "/nonexistent/server"}, 127, "starting /nonexistent/server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runProxy(t, nil, "", tc.args...)
			if code != tc.wantCode || out != "" || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, no stdout, stderr with %q", code, out, errOut, tc.wantCode, tc.wantErr)
			}
		})
	}
}
