package e2e_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// waitFor polls cond until it holds or the deadline passes (waiting on an
// external process, not ordering events).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond) // polling an external process
	}
}

// TestCaptureLock runs two proxies on one capture path: the second fails
// at once, names the first as the holder, never starts its server, and the
// first capture stays a clean single session.
func TestCaptureLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	capt := filepath.Join(dir, "c.jsonl")
	first := exec.Command(bins.mcptrail, "--capture", capt, "--", bins.fastserver, "-ready")
	stdin, err := first.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("first proxy: %q, %v", line, err)
	}
	waitFor(t, "the first session record", func() bool {
		b, _ := os.ReadFile(capt)
		return strings.Contains(string(b), "\n")
	})

	marker := filepath.Join(dir, "second-started")
	server := []string{"sh", "-c", "touch " + marker + "; exec " + bins.fastserver}
	holder := fmt.Sprintf("in use by another mcptrail process (pid %d, session ", first.Process.Pid)
	for _, flags := range [][]string{{"--append"}, {"--force"}, nil} {
		args := append(append([]string{"--capture", capt}, flags...), "--")
		start := time.Now()
		_, errOut, code := runProxy(t, nil, "", append(args, server...)...)
		if code != 1 || !strings.Contains(errOut, holder) {
			t.Errorf("second proxy %v: exit %d, stderr %q; want 1 naming pid %d", flags, code, errOut, first.Process.Pid)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("second proxy %v took %v to fail", flags, d)
		}
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the second proxy's server was started: %v", err)
	}

	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := first.Wait(); err != nil {
		t.Fatalf("first proxy: %v", err)
	}
	idx := indexCapture(t, capt)
	h, recs, dmg := readCapture(t, capt)
	if len(idx) != 1 || h.PID != first.Process.Pid || dmg.Torn || dmg.Corrupt > 0 || recs[len(recs)-1].Type != capture.TypeEnd {
		t.Errorf("first capture: %d sessions, header %+v, damage %+v", len(idx), h, dmg)
	}
	if got := framesByDir(t, recs)[capture.C2S]; string(got) != `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n" {
		t.Errorf("first capture's c2s stream %q", got)
	}
}

// indexCapture lists the sessions in the capture file at path.
func indexCapture(t *testing.T, path string) []capture.Session {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	idx, err := capture.Index(f)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// TestCaptureAppendExport appends two sessions to one file through the
// real proxy and exports each of them.
func TestCaptureAppendExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	capt := filepath.Join(dir, "c.jsonl")
	for _, label := range []string{"one", "two"} {
		req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + label + `"}}` + "\n"
		if _, errOut, code := runProxy(t, nil, req, "--capture", capt, "--append", "--label", label, "--", "cat"); code != 0 {
			t.Fatalf("proxy %s: exit %d, %s", label, code, errOut)
		}
	}
	// Without --append, the file is refused (a usage error) and kept.
	before, err := os.ReadFile(capt)
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runProxy(t, nil, "", "--capture", capt, "--", "cat"); code != 2 || !strings.Contains(errOut, "capture file exists") {
		t.Errorf("third proxy without --append: exit %d, %s", code, errOut)
	}
	if after, err := os.ReadFile(capt); err != nil || string(after) != string(before) {
		t.Errorf("refused run changed the file (%v)", err)
	}
	idx := indexCapture(t, capt)
	if len(idx) != 2 {
		t.Fatalf("%d sessions in the file, want 2", len(idx))
	}
	for i, want := range []string{"one", "two"} {
		for _, args := range [][]string{{"--session", idx[i].Header.SessionID}, {"--session", idx[i].Header.SessionID[:6]}} {
			got := exportSession(t, append(args, capt)...)
			if got.Session.ID != idx[i].Header.SessionID || got.Session.Label != want || len(got.Calls) != 2 || got.Calls[0].Target != want {
				t.Errorf("export %v: %+v, want session %d (%s) with its 2 calls", args, got, i, want)
			}
		}
	}
	if got := exportSession(t, capt); got.Session.Label != "two" {
		t.Errorf("export of the file read %q, want the last session", got.Session.Label)
	}
	// Standard input redirected from the file is indexed like the file.
	in, err := os.Open(capt)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(bins.mcptrail, "export", "-")
	cmd.Stdin = in
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"label":"two"`) {
		t.Errorf("export of standard input from the file: %v, want the last session\n%.200s", err, out)
	}
}

// exported is the part of the JSON export a test checks.
type exported struct {
	Session struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	} `json:"session"`
	Calls []struct {
		Target string `json:"target"`
	} `json:"calls"`
}

func exportSession(t *testing.T, args ...string) exported {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, append([]string{"export"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("export %v: %v", args, err)
	}
	var e exported
	if err := json.Unmarshal(out, &e, json.RejectUnknownMembers(false)); err != nil {
		t.Fatalf("export %v: %v", args, err)
	}
	return e
}

// TestFailedStartLeavesNoSession: a server that cannot start leaves no
// session in the state directory, so the newest session stays the last
// real one.
func TestFailedStartLeavesNoSession(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "state")
	env := []string{"MCPTRAIL_HOME=" + home}
	if _, errOut, code := runProxy(t, env, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", "--label", "real", "--", "cat"); code != 0 {
		t.Fatalf("real session: exit %d, %s", code, errOut)
	}
	if _, _, code := runProxy(t, env, "", "--label", "broken", "--", filepath.Join(home, "no-such-server")); code != 127 {
		t.Fatalf("failed start: exit %d, want 127", code)
	}
	files, err := capture.SessionFiles(capture.SessionsDir(home))
	if err != nil || len(files) != 1 || !strings.Contains(files[0], "-real-") {
		t.Errorf("session files %q, %v; want only the real one", files, err)
	}
	cmd := exec.Command(bins.mcptrail, "export")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"label":"real"`) {
		t.Errorf("newest session export: %v\n%.200s", err, out)
	}
}
