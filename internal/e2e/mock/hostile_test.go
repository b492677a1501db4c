package mock_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// hostileCapture is a capture with a reused id (two requests id 1, one
// answer), a corrupt line, an invalid frame, a legacy elicitation that
// keeps a call open, and a torn last line.
const hostileCapture = `{"type":"session","time":"2026-07-28T12:00:00Z","format":1,"session_id":"hostile1","transport":"stdio","label":"h","command":["srv"]}
{"type":"frame","seq":1,"time":"2026-07-28T12:00:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}}
{"type":"frame","seq":2,"time":"2026-07-28T12:00:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"type":"frame","seq":3,"time":"2026-07-28T12:00:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}}
{"type":"frame","seq":4,"time":"2026-07-28T12:00:00.004Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}}
{"type":"frame","seq":5,"time":"2026-07-28T12:00:00.005Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}
this line is not a record
{"type":"frame","seq":6,"time":"2026-07-28T12:00:00.006Z","dir":"s2c","size":9,"text":"not json!"}
{"type":"frame","seq":7,"time":"2026-07-28T12:00:00.007Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"book"}}}
{"type":"frame","seq":8,"time":"2026-07-28T12:00:00.008Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"message":"How many?","requestedSchema":{"type":"object","properties":{}}}}}
{"type":"frame","seq":9,"time":"2026-07-28T12:00:00.009Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":5,"result":{"action":"accept","content":{}}}}
{"type":"frame","seq":10,"time":"2026-07-28T12:00:00.010Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"booked"}]}}}
{"type":"frame","seq":11,"time":"2026-07-28T12:00:00.011Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":3,"res`

func writeHostile(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "hostile.jsonl")
	if err := os.WriteFile(path, []byte(hostileCapture), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// TestHostileStdio serves the hostile capture on stdio: the mock warns of
// what it skips, answers with recorded results or clear errors, and exits
// promptly, reporting, when its input ends in the middle of a held call.
func TestHostileStdio(t *testing.T) {
	t.Parallel()
	dir, path := writeHostile(t)
	cmd := exec.Command(bins.mcptrail, "mock", path)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir)
	stderr := new(testbin.Buffer)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	ask := func(req, want string) {
		t.Helper()
		if _, err := stdin.Write([]byte(req + "\n")); err != nil {
			t.Fatalf("writing %s: %v", req, err)
		}
		select {
		case got, ok := <-lines:
			if !ok || !strings.Contains(got, want) {
				t.Fatalf("%s: got %q (open %v), want it to contain %q\nstderr:\n%s", req, got, ok, want, stderr.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no answer\nstderr:\n%s", req, stderr.String())
		}
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`, `the recorded call was never answered`)
	ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`, `"id":2,"result":{"content":[]}`)
	ask(`not json`, `"code":-32600`)
	ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book"}}`, `"method":"elicitation/create"`)
	stdin.Close() // in the middle of the held call
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mcptrail mock exited with %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("mcptrail mock did not exit after its stdin closed\nstderr:\n%s", stderr.String())
	}
	for _, want := range []string{
		"hostile.jsonl is damaged: torn last line",
		"1 corrupt line;",
		"1 frame of the capture is not a JSON-RPC message; it is skipped",
		"1 recorded request was never asked for:",
		"call 0: initialize",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestHostileHTTP serves the hostile capture over HTTP, leaves a legacy
// call's SSE stream open, and interrupts the mock: it exits cleanly and
// its port is closed.
func TestHostileHTTP(t *testing.T) {
	t.Parallel()
	dir, path := writeHostile(t)
	m := startListener(t, dir, "mock", "--http", "127.0.0.1:0", path)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+m.addr+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"book"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var head bytes.Buffer
	for !strings.Contains(head.String(), "elicitation/create") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the SSE stream: %v (so far %q)", err, head.String())
		}
		head.WriteString(line)
	}
	m.stop(t) // with the stream open
	if _, err := br.ReadString('\n'); err == nil {
		// the stream may hold a blank line still; the next read must end
		if _, err := br.ReadString('\n'); err == nil {
			t.Errorf("the SSE stream stayed open after the mock exited")
		}
	}
	if c, err := net.DialTimeout("tcp", m.addr, 2*time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after the mock exited", m.addr)
	}
}

// TestNotACapture: input that is not a capture, and a capture with nothing
// to serve, end in clear errors with exit status 3.
func TestNotACapture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string]string{
		"garbage.jsonl": "\x00\x01 not a capture at all\n",
		"empty.jsonl":   `{"type":"session","time":"2026-07-28T12:00:00Z","format":1,"session_id":"e1","transport":"stdio","label":"e"}` + "\n",
	}
	wants := map[string]string{
		"garbage.jsonl": "garbage.jsonl",
		"empty.jsonl":   "the capture holds no client request to answer",
	}
	for name, text := range cases {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, bins.mcptrail, "mock", path)
		cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir)
		out, err := cmd.CombinedOutput()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("mock %s: %v, want exit status 3\n%s", name, err, out)
		}
		if !strings.Contains(string(out), wants[name]) {
			t.Errorf("mock %s said %q, want it to contain %q", name, out, wants[name])
		}
	}
}
