package replay_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// nodeScripts returns a fresh directory holding testdata/*.mjs beside a
// node_modules link to the real Node peers (testbin.NodeModules), so the
// scripts' bare imports resolve; it skips t without Node.
func nodeScripts(t *testing.T) string {
	t.Helper()
	return testbin.NodeScripts(t, testbin.NodeModules(t), filepath.Join("testdata", "*.mjs"))
}

// nodeEnv is the environment of the Node processes: home, config and
// cache in dir, so nothing is written outside the test's directories.
func nodeEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, ".cache"), "MCPTRAIL_HOME=" + dir}
}

// everything is the server-everything command line (stdio).
func everything(t *testing.T) []string {
	t.Helper()
	return []string{"node", filepath.Join(testbin.NodeModules(t), "@modelcontextprotocol", "server-everything", "dist", "index.js"), "stdio"}
}

// recordNode runs `node script clientArgs... -- mcptrail --capture X --
// server...` in dir and returns X and how long the recorded session took.
func recordNode(t *testing.T, dir, script string, clientArgs, server []string) (string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), replayBound)
	defer cancel()
	path := filepath.Join(dir, strings.TrimSuffix(script, ".mjs")+"-"+strings.ReplaceAll(t.Name(), "/", "-")+".jsonl")
	args := append(append(append([]string{script}, clientArgs...), "--", bins.mcptrail, "--capture", path, "--"), server...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), nodeEnv(dir)...)
	var stdout, stderr testbin.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstdout:\n%s\nstderr:\n%s", script, err, stdout.Bytes(), stderr.Bytes())
	}
	return path, time.Since(start)
}

// notes returns the capture's note records.
func notes(t *testing.T, path string) []capture.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []capture.Record
	for {
		var rec capture.Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading %s: %v", path, err)
		}
		if rec.Type == capture.TypeNote {
			out = append(out, rec)
		}
	}
}

// TestReplayEverythingVolatile: a real server-everything session (the TS
// SDK v1 client: a URL-mode elicitation, whose result names the flow id
// the server minted, roots, structured content) replayed against the same
// server exits 0 and names the path it treated as volatile; with
// --no-learn (one run) that path is a difference, and replay exits 1.
func TestReplayEverythingVolatile(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	se := everything(t)
	rec, _ := recordNode(t, dir, "se-client.mjs", []string{
		`echo={"message":"hi"}`, `get-structured-content={"location":"New York"}`,
		`trigger-url-elicitation={"url":"https://example.com/connect","message":"Connect your account"}`, "get-roots-list",
	}, se)
	args := append([]string{rec, "--slower-than", "0", "--allow-destructive", "--"}, se...)
	o := runReplayIn(t, t.TempDir(), nil, args...)
	if o.code != 0 {
		t.Fatalf("replay against the same server exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	for _, w := range []string{"volatile (differed between two runs of the server; not compared):", "  tools/call[trigger-url-elicitation] result /content/0/text"} {
		if !strings.Contains(o.stdout, w) {
			t.Errorf("stdout lacks %q\nstdout:\n%s", w, o.stdout)
		}
	}
	if !regexp.MustCompile(`replaying \d+ calls twice`).MatchString(o.stderr) {
		t.Errorf("stderr does not say the calls are replayed twice:\n%s", o.stderr)
	}
	once := runReplayIn(t, t.TempDir(), nil, append([]string{rec, "--no-learn", "--slower-than", "0", "--allow-destructive", "--"}, se...)...)
	if once.code != 1 || !strings.Contains(once.stdout, "result /content/0/text changed") || strings.Contains(once.stdout, "volatile") {
		t.Errorf("--no-learn exited %d, want 1 naming the changed flow id and nothing volatile\nstdout:\n%s\nstderr:\n%s", once.code, once.stdout, once.stderr)
	}
}

// TestReplayMRTRVolatile: a TS SDK v2 session (2026-07-28, an MRTR round
// whose server mints a fresh order id and timestamp) replayed against the
// same server exits 0 and names the three volatile paths, in text and in
// --json; against a changed build (another total) it exits 1 naming the
// changed paths and only them. --ignore and .mcptrail.toml's [replay]
// ignore leave paths uncompared in a single run (--no-learn).
func TestReplayMRTRVolatile(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	server := []string{"node", filepath.Join(dir, "mrtr-server.mjs")}
	rec, _ := recordNode(t, dir, "mrtr-client.mjs", nil, server)
	volatile := []string{"/content/0/text", "/structuredContent/order", "/structuredContent/createdAt"}
	replayArgs := func(extra ...string) []string {
		return append(append(append([]string{rec, "--slower-than", "0"}, extra...), "--"), server...)
	}

	o := runReplayIn(t, t.TempDir(), nil, replayArgs()...)
	if o.code != 0 {
		t.Fatalf("replay against the same server exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	for _, p := range volatile {
		if w := "tools/call[order] result " + p; !strings.Contains(o.stdout, w) {
			t.Errorf("stdout lacks %q\nstdout:\n%s", w, o.stdout)
		}
	}

	j := runReplayIn(t, t.TempDir(), nil, replayArgs("--json")...)
	var doc struct {
		Differs  bool `json:"differs"`
		Volatile struct {
			Paths []struct{ Method, Target, Path string }
		} `json:"volatile"`
	}
	if err := json.Unmarshal([]byte(j.stdout), &doc); err != nil || j.code != 0 {
		t.Fatalf("replay --json exited %d, stdout not one JSON document: %v\nstdout:\n%s\nstderr:\n%s", j.code, err, j.stdout, j.stderr)
	}
	var got []string
	for _, p := range doc.Volatile.Paths {
		got = append(got, p.Target+" "+p.Path)
	}
	if doc.Differs || strings.Join(got, ",") != "order "+strings.Join(volatile, ",order ") {
		t.Errorf("--json: differs %v, volatile %q; want false and the order tool's %q", doc.Differs, got, volatile)
	}

	changed := runReplayIn(t, t.TempDir(), []string{"MCPTRAIL_TEST_TOTAL=43"}, replayArgs()...)
	if changed.code != 1 {
		t.Errorf("replay against the changed build exited %d, want 1\nstdout:\n%s\nstderr:\n%s", changed.code, changed.stdout, changed.stderr)
	}
	for _, w := range []string{"result /structuredContent/total changed: 42 -> 43", "tools/call[price]", `result /content/0/text changed: "total 42" -> "total 43"`} {
		if !strings.Contains(changed.stdout, w) {
			t.Errorf("stdout against the changed build lacks %q\nstdout:\n%s", w, changed.stdout)
		}
	}
	if strings.Contains(changed.stdout, "/structuredContent/order changed") {
		t.Errorf("the changed build's report shows the volatile order id:\n%s", changed.stdout)
	}

	home := t.TempDir()
	toml := "[replay]\nignore = [\"/structuredContent/order\", \"/structuredContent/createdAt\"]\n"
	if err := os.WriteFile(filepath.Join(home, ".mcptrail.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ignored := runReplayIn(t, home, nil, replayArgs("--no-learn", "--ignore", "/content/0/text")...)
	if ignored.code != 0 || strings.Contains(ignored.stdout, "volatile") {
		t.Errorf("--no-learn with every volatile path ignored exited %d, want 0 and nothing learned\nstdout:\n%s\nstderr:\n%s", ignored.code, ignored.stdout, ignored.stderr)
	}
	partly := runReplayIn(t, home, nil, replayArgs("--no-learn")...)
	if partly.code != 1 || !strings.Contains(partly.stdout, "result /content/0/text changed") || strings.Contains(partly.stdout, "/structuredContent/order changed") {
		t.Errorf("--no-learn with [replay] ignore alone exited %d, want 1 naming /content/0/text only\nstdout:\n%s", partly.code, partly.stdout)
	}
}

// TestReplayRootsOnTimer: server-everything asks roots/list 350 ms after
// initialized, on a timer, when no call is in flight; the recording
// answered it. The replay answers it from the recording (after its last
// call, waiting for it as long as the recording says it is due), so the
// server has nothing pending, exits at EOF, and the replay takes about
// the recorded time, not --timeout; get-roots-list, which asks again
// during the call, gets the recorded roots too.
func TestReplayRootsOnTimer(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	se := everything(t)
	for _, tc := range []struct {
		name  string
		calls []string
	}{
		{"timer", []string{`echo={"message":"hi"}`}},
		{"tool", []string{`echo={"message":"hi"}`, "get-roots-list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec, took := recordNode(t, dir, "se-client.mjs", tc.calls, se)
			o := runReplayIn(t, t.TempDir(), nil, append([]string{rec, "--no-learn", "--slower-than", "0", "--timeout", "20s", "--"}, se...)...)
			t.Logf("recorded in %v (the client's whole run), replayed in %v", took, o.duration)
			if o.code != 0 || strings.Contains(o.stdout, "unanswered") {
				t.Errorf("replay exited %d, want 0 with every roots/list answered\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			if o.duration > took+8*time.Second {
				t.Errorf("replay took %v, the recording %v: it waited for a server request (--timeout 20s)", o.duration, took)
			}
			for _, n := range notes(t, o.capture) {
				if n.Note == capture.NoteSignal {
					t.Errorf("the server had to be stopped (%s %s): it did not exit at EOF", n.Signal, n.Text)
				}
			}
		})
	}
}

// TestReplayStopsServerIgnoringEOF: server-everything with simulated
// logging on (an interval timer) does not exit when its stdin closes;
// replay stops it --kill-after (5s) after the end of its input with
// SIGTERM, as the proxy does, instead of waiting --timeout (30s).
func TestReplayStopsServerIgnoringEOF(t *testing.T) {
	t.Parallel()
	dir := nodeScripts(t)
	se := everything(t)
	rec, _ := recordNode(t, dir, "se-client.mjs", []string{"toggle-simulated-logging"}, se)
	o := runReplayIn(t, t.TempDir(), nil, append([]string{rec, "--no-learn", "--slower-than", "0", "--allow-destructive", "--"}, se...)...)
	t.Logf("replay took %v, exit %d", o.duration, o.code)
	if o.duration > 20*time.Second {
		t.Errorf("replay took %v to stop a server that ignores EOF (--kill-after 5s, --timeout 30s)\nstderr:\n%s", o.duration, o.stderr)
	}
	if strings.Contains(o.stderr, "timed out") {
		t.Errorf("replay timed out:\n%s", o.stderr)
	}
	var signals []string
	for _, n := range notes(t, o.capture) {
		if n.Note == capture.NoteSignal {
			signals = append(signals, n.Signal)
		}
	}
	if len(signals) == 0 || signals[0] != "SIGTERM" {
		t.Errorf("the new capture notes signals %q, want SIGTERM first", signals)
	}
}
