package httpproxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestDiskFullSDKServer puts the proxy in front of the real go-sdk server
// with a capture whose disk fills mid-session, and goes on calling past
// the failure: every request and answer crosses byte for byte (the server
// saw what the client sent, the client got what the server wrote), and
// once space is freed the capture ends with a capture-gap note whose
// counts are exactly the frames, bytes and seqs the file lacks.
func TestDiskFullSDKServer(t *testing.T) {
	t.Parallel()
	srv := sdkpeer.NewCatalogServer(false)
	seen := &bodyTee{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})}
	target := httptest.NewServer(seen)
	defer target.Close()
	u, _ := url.Parse(target.URL + "/mcp")
	disk := &testbin.FullDisk{Limit: 16_000}
	failed := make(chan error, 1)
	p, err := New(&Options{Target: u, Capture: disk, OnCaptureError: func(err error) { failed <- err }})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	var c sdkCaller
	for !disk.Failed() {
		if c.calls > 10_000 {
			t.Fatal("the capture did not fail")
		}
		c.call(t, front.URL+"/mcp")
	}
	const after = 20 // calls made once the capture has failed: all lost
	for range after {
		c.call(t, front.URL+"/mcp")
	}
	front.Close()
	disk.Free()
	err = p.Close()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "recorded in a capture-gap note") {
		t.Errorf("Close = %v, want ENOSPC recorded in a capture-gap note", err)
	}
	if err := <-failed; !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("OnCaptureError got %v, want ENOSPC", err)
	}
	if d := seen.diff(c.sent, c.got); d != "" {
		t.Error(d)
	}
	gap := testbin.CheckCaptureGapBytes(t, disk.Bytes(), int64(2*c.calls), c.bytes)
	if gap.LostFrame < 2*after || gap.LostLastSeq != uint64(2*c.calls) {
		t.Errorf("the note says %d frames lost, seqs %d to %d; want at least the %d of the last %d calls, up to seq %d",
			gap.LostFrame, gap.LostFirstSeq, gap.LostLastSeq, 2*after, after, 2*c.calls)
	}
}

// sdkCaller makes modern stateless tools/call requests and keeps what
// crossed.
type sdkCaller struct {
	calls     int
	bytes     int64
	sent, got []string
}

func (c *sdkCaller) call(t *testing.T, url string) {
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

// bodyTee keeps the request and response bodies h saw.
type bodyTee struct {
	h         http.Handler
	mu        sync.Mutex
	req, resp []string
}

func (th *bodyTee) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	tw := &bodyTeeWriter{ResponseWriter: w}
	th.h.ServeHTTP(tw, r)
	th.mu.Lock()
	defer th.mu.Unlock()
	th.req, th.resp = append(th.req, string(b)), append(th.resp, tw.buf.String())
}

// diff says how what the server saw differs from what the client sent and
// got; "" when every byte crossed untouched.
func (th *bodyTee) diff(sent, got []string) string {
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(th.req) != len(sent) {
		return fmt.Sprintf("the server saw %d requests, the client sent %d", len(th.req), len(sent))
	}
	for i := range sent {
		if th.req[i] != sent[i] {
			return fmt.Sprintf("request %d: the server got %q, the client sent %q", i+1, th.req[i], sent[i])
		}
		if th.resp[i] != got[i] {
			return fmt.Sprintf("response %d: the client got %q, the server wrote %q", i+1, got[i], th.resp[i])
		}
	}
	return ""
}

// bodyTeeWriter keeps a copy of the body written through it.
type bodyTeeWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (w *bodyTeeWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	return w.ResponseWriter.Write(p)
}

// Flush passes a flush on to the connection.
func (w *bodyTeeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
