package replay_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// recordHTTPClients records, through one `mcptrail http --target`, one
// go-sdk client session per entry of versions, one after another (each
// lists the tools, makes the call and closes); "" lets the client
// negotiate (a server/discover probe, then initialize when the server
// refuses it). It returns the capture.
func recordHTTPClients(t *testing.T, target string, call *mcp.CallToolParams, versions ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "http.jsonl")
	cmd := exec.Command(bins.mcptrail, "http", "--listen", "127.0.0.1:0", "--target", target, "--capture", path)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir)
	stderr, done := new(testbin.Buffer), make(chan error, 1)
	addr := testbin.StartListener(t, cmd, stderr, done, listening)
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	}()
	for i, version := range versions {
		client := mcp.NewClient(&mcp.Implementation{Name: "replay-e2e-client", Version: "1.0.0"},
			&mcp.ClientOptions{ElicitationHandler: accept})
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", MaxRetries: -1},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("client %d connecting over HTTP at %q: %v\n%s", i, version, err, stderr.Bytes())
		}
		if got := cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
			t.Fatalf("client %d negotiated %q, want 2025-11-25", i, got)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatalf("client %d listing tools: %v", i, err)
		}
		if res, err := cs.CallTool(ctx, call); err != nil || res.IsError {
			t.Fatalf("client %d calling %s: %v %+v", i, call.Name, err, res)
		}
		if err := cs.Close(); err != nil {
			t.Fatalf("client %d closing: %v", i, err)
		}
	}
	testbin.StopListener(t, cmd, stderr, done)
	return path
}

// book is sdkpeer's legacy tool (it asks how many guests); echo is
// server-everything's.
var (
	book = &mcp.CallToolParams{Name: "book"}
	echo = &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}}
)

// TestReplayHTTPSessions: a 2025-11-25 capture of three go-sdk client
// sessions, one after another through `mcptrail http`, each with its own
// Mcp-Session-Id, replays against the same server (the go-sdk's, and the
// real server-everything) with each recorded session on its own: its own
// initialize, its own session id. Exit 0, nothing differs, and the new
// capture holds three initialize answers, each with a session id of its
// own.
func TestReplayHTTPSessions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		target func(*testing.T) string
		call   *mcp.CallToolParams
	}{
		{"go-sdk", func(t *testing.T) string { return serveHTTP(t, true, "") }, book},
		{"server-everything", func(t *testing.T) string { return testbin.EverythingHTTP(t) }, echo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := tc.target(t)
			rec := recordHTTPClients(t, target, tc.call, "2025-11-25", "2025-11-25", "2025-11-25")
			if n := strings.Count(readFile(t, rec), `"method":"initialize"`); n != 3 {
				t.Fatalf("the recording holds %d initialize requests, want 3", n)
			}
			o := runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--target", target)
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("replay exited %d with this on stdout, want 0 and nothing\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			checkSessionIDs(t, o.capture, 3)
		})
	}
}

// TestReplayHTTPNegotiated: a go-sdk client left to negotiate probes the
// real server-everything (2025 eras only) with server/discover, which it
// refuses with HTTP 400 and an error of null id, then initializes. The
// replay sends the probe as recorded, takes the live refusal for the same
// answer, and goes on with the fallback initialize and the session's
// calls: exit 0, nothing differs.
func TestReplayHTTPNegotiated(t *testing.T) {
	t.Parallel()
	target := testbin.EverythingHTTP(t)
	rec := recordHTTPClients(t, target, echo, "")
	text := readFile(t, rec)
	if !strings.Contains(text, `"method":"server/discover"`) || !strings.Contains(text, `"status":400`) {
		t.Fatalf("the recording holds no server/discover probe refused with 400:\n%s", text)
	}
	o := runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--target", target)
	if o.code != 0 || o.stdout != "" {
		t.Fatalf("replay exited %d with this on stdout, want 0 and nothing\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	checkSessionIDs(t, o.capture, 1)
	if got := readFile(t, o.capture); !strings.Contains(got, `"method":"server/discover"`) || !strings.Contains(got, `"method":"tools/call"`) {
		t.Errorf("the replay did not send the probe and the call:\n%s", got)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkSessionIDs checks that the capture holds want initialize answers,
// each giving a session id no other gave.
func checkSessionIDs(t *testing.T, path string, want int) {
	t.Helper()
	seen := map[string]bool{}
	n := 0
	for line := range strings.Lines(readFile(t, path)) {
		if !strings.Contains(line, `"dir":"s2c"`) || !strings.Contains(line, `"protocolVersion"`) {
			continue
		}
		n++
		_, after, ok := strings.Cut(line, `"Mcp-Session-Id":"`)
		id, _, _ := strings.Cut(after, `"`)
		if !ok || id == "" || seen[id] {
			t.Errorf("initialize answer without a session id of its own:\n%s", line)
		}
		seen[id] = true
	}
	if n != want {
		t.Errorf("the new capture holds %d initialize answers, want %d", n, want)
	}
}

// TestSessionsCountsClientCalls: the same scenario (list the tools, call
// one tool that asks the user one question) recorded over HTTP with real
// go-sdk peers in each era makes as many calls in both: `mcptrail
// sessions` counts what the client asked, and the 2025-11-25 server's
// elicitation/create apart, as a server request, not a call.
func TestSessionsCountsClientCalls(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dir := filepath.Join(home, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, era := range httpEras {
		rec := recordHTTP(t, serveHTTP(t, era.legacy, ""), era.legacy, era.version, era.tools[:1])
		name := "20260728T090000Z-" + era.name + "-" + map[bool]string{false: "0000000000000001", true: "0000000000000002"}[era.legacy] + ".jsonl"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(readFile(t, rec)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bins.mcptrail, "sessions", "--json")
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcptrail sessions --json: %v", err)
	}
	var rows []struct {
		Path           string `json:"path"`
		Calls          int    `json:"calls"`
		ServerRequests *int   `json:"server_requests"`
	}
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 2 {
		t.Fatalf("sessions --json: %v, %d rows:\n%s", err, len(rows), out)
	}
	got := map[string][2]int{}
	for _, r := range rows {
		if r.ServerRequests == nil {
			t.Fatalf("sessions --json has no server_requests:\n%s", out)
		}
		era := "modern"
		if strings.Contains(filepath.Base(r.Path), "-legacy-") {
			era = "legacy"
		}
		got[era] = [2]int{r.Calls, *r.ServerRequests}
	}
	// initialize (or server/discover), tools/list, the tool call (an MRTR
	// operation once); the legacy server asked by elicitation/create.
	want := map[string][2]int{"modern": {3, 0}, "legacy": {3, 1}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("calls, server requests by era (-want +got):\n%s", d)
	}
}
