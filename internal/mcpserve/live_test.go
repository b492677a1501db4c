package mcpserve_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// connectProxied starts `mcptrail --label LABEL -- mcptrail mcp` over
// state (the real proxy in front of the real server, capturing it into
// state's sessions folder) with the go-sdk client; the returned func
// closes the client's session and waits for the proxy to end.
func connectProxied(t *testing.T, state, label string) (*mcp.ClientSession, func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(mcptrail, "--label", label, "--", mcptrail, "mcp")
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+state)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcptrail-live", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to mcptrail -- mcptrail mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	closed := false
	done := func() {
		if closed {
			return
		}
		closed = true
		if err := cs.Close(); err != nil {
			t.Errorf("closing the proxied session: %v", err)
		}
		if err := cmd.Wait(); err != nil && !errors.Is(err, os.ErrProcessDone) && !strings.Contains(err.Error(), "Wait was already called") {
			t.Errorf("mcptrail -- mcptrail mcp: %v\nstderr:\n%s", err, stderr.String())
		}
	}
	t.Cleanup(done)
	return cs, done
}

// TestLiveSession watches a session while the real proxy captures it:
// an agent's own mcptrail mcp, proxied (`mcptrail -- mcptrail mcp`), is
// the live session. The summary says it is live; tail waits for the next
// calls the proxied client makes and answers them, then times out, then
// sees the session end; check and ledger answer what the CLI says of the
// live capture; and the finished capture of mcptrail mcp checks clean
// under the default rules.
func TestLiveSession(t *testing.T) {
	t.Parallel()
	state := stateWith(t, "elicit-seed")
	live, stop := connectProxied(t, state, "live")
	if _, err := live.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	watch := connect(t, state)

	var id string
	for _, s := range pages(t, watch, "sessions", nil, "sessions", 16<<10) {
		if row := s.(map[string]any); row["label"] == "live" {
			id = row["id"].(string)
			if row["ended"] != false {
				t.Errorf("the live session has ended: %v", row)
			}
		}
	}
	if id == "" {
		t.Fatal("sessions does not list the live session")
	}
	sum := call(t, watch, "session_summary", map[string]any{"session": id})
	if h := sum.structured["session"].(map[string]any); h["live"] != true || h["damage"].(map[string]any)["torn"] != false {
		t.Errorf("summary of the live session: %v", h)
	}

	first := call(t, watch, "tail", map[string]any{"session": id, "timeout_s": 0.3})
	if first.isError || first.structured["stopped"] != "timeout" {
		t.Fatalf("tail with nothing new: %v %q", first.structured, first.text)
	}
	after := first.structured["last_seq"].(float64)
	if after == 0 {
		t.Fatalf("tail: last_seq 0 after the handshake: %v", first.structured)
	}
	got := make(chan answer, 1)
	go func() {
		got <- call(t, watch, "tail", map[string]any{"session": id, "count": 2, "after_seq": after, "timeout_s": 30})
	}()
	time.Sleep(200 * time.Millisecond) // the tail is waiting; what follows is new either way
	// The other tools answer while a tail waits.
	began := time.Now()
	if s := call(t, watch, "session_summary", map[string]any{"session": id}); s.isError || time.Since(began) > 10*time.Second {
		t.Errorf("session_summary while a tail waits: %v after %v", s.isError, time.Since(began))
	}
	for _, args := range []map[string]any{{"id": "late-result"}, {"id": "no-such-rule"}} {
		if _, err := live.CallTool(context.Background(), &mcp.CallToolParams{Name: "explain_rule", Arguments: args}); err != nil {
			t.Fatal(err)
		}
	}
	tail := <-got
	if tail.isError || tail.structured["stopped"] != "count" {
		t.Fatalf("tail for 2 calls: %v %q", tail.structured, tail.text)
	}
	calls := tail.structured["calls"].([]any)
	if len(calls) < 2 {
		t.Fatalf("tail: %d calls, want the 2 made: %v", len(calls), calls)
	}
	for _, c := range calls[:2] {
		row := c.(map[string]any)
		if row["method"] != "tools/call" || row["target"] != "explain_rule" || row["request_seq"].(float64) <= after {
			t.Errorf("tail: call %v, want tools/call explain_rule after #%v", row, after)
		}
	}
	if !strings.Contains(tail.text, "explain_rule") {
		t.Errorf("tail text:\n%s", tail.text)
	}
	next := tail.structured["last_seq"].(float64)
	idle := call(t, watch, "tail", map[string]any{"session": id, "what": "records", "after_seq": next, "timeout_s": 0.5})
	if idle.structured["stopped"] != "timeout" || idle.structured["total"].(float64) != 0 {
		t.Errorf("tail after the last seq: %v", idle.structured)
	}
	frames := call(t, watch, "tail", map[string]any{"session": id, "what": "records", "after_seq": after, "count": 4, "timeout_s": 5})
	if frames.structured["stopped"] != "count" || frames.structured["total"].(float64) < 4 {
		t.Errorf("tail of the 4 frames already written: %v", frames.structured)
	}

	// The live capture, read as far as written, answers what the CLI
	// reads of it.
	var rep struct {
		Results []struct {
			Items []any `json:"items"`
		} `json:"results"`
	}
	cli(t, state, &rep, "check", "-T", "json", id)
	if items := pages(t, watch, "check", map[string]any{"session": id}, "items", 16<<10); !cmp.Equal(rep.Results[0].Items, items, jsonOpts()) {
		t.Errorf("check of the live session: tool %v, CLI %v", items, rep.Results[0].Items)
	}

	ended := make(chan answer, 1)
	go func() {
		ended <- call(t, watch, "tail", map[string]any{"session": id, "after_seq": next, "timeout_s": 30})
	}()
	time.Sleep(200 * time.Millisecond)
	stop()
	if end := <-ended; end.structured["stopped"] != "ended" && end.structured["stopped"] != "writer-gone" {
		t.Errorf("tail while the session ends: %v", end.structured)
	}
	if h := call(t, watch, "session_summary", map[string]any{"session": id}).structured["session"].(map[string]any); h["live"] != false || h["ended"] != true {
		t.Errorf("summary of the ended session: %v", h)
	}

	// mcptrail mcp's own traffic breaks no rule.
	var clean struct {
		Results []struct {
			Items []map[string]any `json:"items"`
		} `json:"results"`
	}
	cli(t, state, &clean, "check", "-T", "json", id)
	for _, it := range clean.Results[0].Items {
		if it["rule"] == "" || it["severity"] == "" {
			continue
		}
		t.Errorf("mcptrail mcp, captured, raises %v: %v", it["rule"], it["message"])
	}
}

// TestHalfWrittenLine: a capture whose writer holds its lock (the real
// capture.File, as the proxy opens it) and whose last line is half
// written is read to its last complete line, live and not torn, its
// answers the frames before; once the writer is gone the same half line
// is the torn tail it then is.
func TestHalfWrittenLine(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	whole := tuitest.Capture(t, "half", tuitest.ReadTranscript(t, tuitest.Transcript("errors")), false)
	f, err := capture.CreateSessionFile(filepath.Join(state, "sessions"), time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC), "half", "tuitest-half")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(append(whole, `{"type":"frame","seq":99,"dir":"s2c","fra`...)); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, state)
	h := call(t, cs, "session_summary", map[string]any{"session": "tuitest-half"}).structured["session"].(map[string]any)
	if h["live"] != true || h["damage"].(map[string]any)["torn"] != false {
		t.Errorf("a half-written line under a live writer: live %v, damage %v", h["live"], h["damage"])
	}
	tail := call(t, cs, "tail", map[string]any{"session": "tuitest-half", "what": "records", "after_seq": 0, "count": 100, "timeout_s": 0.5})
	if tail.structured["stopped"] != "timeout" || tail.structured["live"] != true {
		t.Errorf("tail of a live session with nothing new: %v", tail.structured)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	h = call(t, cs, "session_summary", map[string]any{"session": "tuitest-half"}).structured["session"].(map[string]any)
	if h["live"] != false || h["damage"].(map[string]any)["torn"] != true {
		t.Errorf("the same line, its writer gone: live %v, damage %v", h["live"], h["damage"])
	}
}
