package http_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// captureFailed is the start of the line mcptrail prints on stderr when
// the capture first fails.
const captureFailed = "mcptrail: capture write failed, still relaying"

// TestDiskFullUnderHTTPTap runs `mcptrail http` in front of the real go-sdk
// server with its capture on a small tmpfs, fills the tmpfs mid-session
// and goes on calling: every request and answer crosses byte for byte,
// mcptrail says at once that the capture failed, and once space is freed
// the capture ends with a capture-gap note whose counts are exactly the
// frames (and bytes) it lacks; the store reports it as a finding.
func TestDiskFullUnderHTTPTap(t *testing.T) {
	t.Parallel()
	disk := testbin.MountTmpfs(t, "1m")
	srv := sdkpeer.NewCatalogServer(false)
	seen := &teeHandler{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})}
	ts := httptest.NewServer(seen)
	defer ts.Close()
	tp := &tap{capture: filepath.Join(disk, "session.jsonl")}
	launchTap(t, tp, t.TempDir(), "", []string{"http", "--listen", "127.0.0.1:0", "--target", ts.URL + "/mcp", "--capture", tp.capture})

	var c diskClient
	for range 20 {
		c.call(t, tp.url("/mcp"))
	}
	testbin.FillDisk(t, filepath.Join(disk, "fill"))
	for !strings.Contains(tp.stderr.String(), captureFailed) {
		if c.calls > 100_000 {
			t.Fatalf("no capture failure after %d calls on a full disk; stderr:\n%s", c.calls, tp.stderr.String())
		}
		c.call(t, tp.url("/mcp"))
	}
	const after = 25 // calls made once the capture has failed: all lost
	for range after {
		c.call(t, tp.url("/mcp"))
	}
	if err := os.Remove(filepath.Join(disk, "fill")); err != nil {
		t.Fatal(err)
	}
	stderr := stopFailed(t, tp)
	if !strings.Contains(stderr, "recorded in a capture-gap note") || strings.Count(stderr, captureFailed) != 1 {
		t.Errorf("stderr does not say once that the capture failed and that the loss is in a capture-gap note:\n%s", stderr)
	}
	if diff := seen.diff(c.sent, c.got); diff != "" {
		t.Error(diff)
	}
	gap := testbin.CheckCaptureGap(t, tp.capture, int64(2*c.calls), c.bytes)
	t.Logf("%d calls, %d frames (%d bytes) lost", c.calls, gap.LostFrame, gap.LostBytes)
	if gap.LostFrame < 2*after {
		t.Errorf("%d frames lost, want at least the %d of the calls made after the failure", gap.LostFrame, 2*after)
	}
	want := fmt.Sprintf("the capture lost %d frames (%d bytes)", gap.LostFrame, gap.LostBytes)
	if !slices.Contains(exportFindingMessages(t, runExport(t, tp.capture), "capture-gap"), want) {
		t.Errorf("the export has no capture-gap finding %q", want)
	}
}

// diskClient makes tools/call requests and keeps what crossed.
type diskClient struct {
	calls int
	bytes int64    // of the request and response bodies
	sent  []string // request bodies
	got   []string // response bodies
}

// call makes one modern stateless tools/call through the tap at url and
// checks that the server answered it.
func (c *diskClient) call(t *testing.T, url string) {
	t.Helper()
	c.calls++
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"alpha","arguments":{},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, c.calls)
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "alpha")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("call %d: reading the answer: %v", c.calls, err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"text":"ok"`)) {
		t.Fatalf("call %d: %d %s", c.calls, resp.StatusCode, b)
	}
	c.sent, c.got = append(c.sent, body), append(c.got, string(b))
	c.bytes += int64(len(body) + len(b))
}

// teeHandler keeps the request and response bodies h saw.
type teeHandler struct {
	h         http.Handler
	mu        sync.Mutex
	req, resp []string
}

func (th *teeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	tw := &teeWriter{ResponseWriter: w}
	th.h.ServeHTTP(tw, r)
	th.mu.Lock()
	defer th.mu.Unlock()
	th.req, th.resp = append(th.req, string(b)), append(th.resp, tw.buf.String())
}

// diff says where what the server saw differs from what the client sent
// and got, or "" when every byte crossed unchanged.
func (th *teeHandler) diff(sent, got []string) string {
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(th.req) != len(sent) {
		return fmt.Sprintf("the server saw %d requests, the client sent %d", len(th.req), len(sent))
	}
	for i := range sent {
		if th.req[i] != sent[i] || th.resp[i] != got[i] {
			return fmt.Sprintf("call %d changed on the way: sent %q, server saw %q; server answered %q, client got %q",
				i+1, sent[i], th.req[i], th.resp[i], got[i])
		}
	}
	return ""
}

// teeWriter keeps a copy of the response body.
type teeWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (w *teeWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	return w.ResponseWriter.Write(p)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// stopFailed interrupts the tap, which is to exit with an error (its
// capture is incomplete), and returns its stderr.
func stopFailed(t *testing.T, tp *tap) string {
	t.Helper()
	_ = tp.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-tp.done:
		if err == nil {
			t.Errorf("mcptrail http exited cleanly after losing records; stderr:\n%s", tp.stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = tp.cmd.Process.Kill()
		<-tp.done
		t.Fatalf("mcptrail http did not exit after SIGINT; stderr:\n%s", tp.stderr.String())
	}
	return tp.stderr.String()
}

// exportFindingMessages returns the messages of the export's findings of
// rule.
func exportFindingMessages(t *testing.T, export []byte, rule string) []string {
	t.Helper()
	var x struct {
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(export, &x); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range x.Findings {
		if f.Rule == rule {
			out = append(out, f.Message)
		}
	}
	return out
}
