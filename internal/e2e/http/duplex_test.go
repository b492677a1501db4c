package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
)

// duplexSessions is how many MCP sessions TestAnswerWhileBodyIsRead runs
// through one `mcptrail http`, duplexWorkers of them at a time.
const (
	duplexSessions = 200
	duplexWorkers  = 8
)

// gates lets a client hold back the rest of a request body until the
// target has answered that request: the target opens the gate named by
// the request's X-Test-Gate header once its SSE answer is flushed.
type gates struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

func (g *gates) add(name string) <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := make(chan struct{})
	g.m[name] = c
	return c
}

func (g *gates) open(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.m[name]; ok {
		close(c)
		delete(g.m, name)
	}
}

// duplexTarget is an MCP server that reads only the JSON-RPC message at
// the start of a POST body and starts its SSE answer at once, flushed,
// while the client is still sending the rest of the body: initialize is
// answered before the target reads the rest; tools/call gets its answer
// once the whole body is read, after a progress event if the request has
// an X-Test-Progress header. Either way it opens the request's gate right
// after the headers and first event are flushed. Notifications get
// 202 once the body is read.
func duplexTarget(g *gates) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Without this the target's own server would wait for the whole
		// body before sending the headers.
		_ = http.NewResponseController(w).EnableFullDuplex()
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		gate := r.Header.Get("X-Test-Gate")
		if msg.ID == nil {
			g.open(gate)
			_, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sid := r.Header.Get("Mcp-Session-Id")
		if msg.Method == "initialize" {
			sid = r.Header.Get("X-Test-Session")
			w.Header().Set("Mcp-Session-Id", sid)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		answer := "event: message\ndata: " + duplexAnswer(string(msg.ID), msg.Method, sid) + "\n\n"
		if msg.Method == "initialize" {
			io.WriteString(w, answer)
		} else if r.Header.Get("X-Test-Progress") != "" {
			io.WriteString(w, "event: message\ndata: "+duplexProgress+"\n\n")
		}
		w.(http.Flusher).Flush()
		g.open(gate)
		_, _ = io.Copy(io.Discard, r.Body)
		if msg.Method != "initialize" {
			io.WriteString(w, answer)
		}
	})
}

// duplexProgress is the event duplexTarget sends before a tools/call
// answer.
const duplexProgress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`

// duplexAnswer is the target's answer to a request; it names the session
// and the method so a client can tell it got its own answer.
func duplexAnswer(id, method, sid string) string {
	if method == "initialize" {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},` +
			`"serverInfo":{"name":"duplex","version":"1.0.0"},"instructions":"` + sid + `"}}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"` + sid + `-` + method + `"}]}}`
}

// duplexClient runs sessions against the tap and remembers every request
// body it sent, for the check of the capture.
type duplexClient struct {
	url   string
	gates *gates
	http  *http.Client

	mu   sync.Mutex
	sent []string
}

// tailPieces is how many 1 KiB pieces of whitespace a split call sends
// after the message, each its own chunk.
const tailPieces = 64

// call sends one message and returns the response body. A split call
// sends the message, then (after the target answered) tailPieces KiB of
// trailing whitespace, chunked; otherwise the message is padded to 8 KiB inside
// its params and sent whole with a Content-Length.
func (c *duplexClient) call(ctx context.Context, sid, gate, msg string, split, progress bool) (int, string, error) {
	var body io.Reader
	full := msg
	if split {
		piece := strings.Repeat(" ", 1023) + "\n"
		full = msg + strings.Repeat(piece, tailPieces)
		pr, pw := io.Pipe()
		open := c.gates.add(gate)
		go func() {
			_, _ = io.WriteString(pw, msg)
			select {
			case <-open:
			case <-ctx.Done():
			}
			for range tailPieces {
				_, _ = io.WriteString(pw, piece)
			}
			pw.Close()
		}()
		body = pr
	} else {
		body = strings.NewReader(full)
	}
	c.mu.Lock()
	c.sent = append(c.sent, full)
	c.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, body)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("X-Test-Gate", gate)
	if progress {
		req.Header.Set("X-Test-Progress", "1")
	}
	if strings.Contains(msg, `"initialize"`) {
		req.Header.Set("X-Test-Session", sid)
	} else {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, string(b), fmt.Errorf("reading the answer: %w", err)
	}
	return resp.StatusCode, string(b), nil
}

// session runs initialize, notifications/initialized and tools/call, and
// checks that each request got its answer. Even sessions send split
// bodies (half of them asking for a progress event before the call's
// answer), odd ones padded bodies sent whole.
func (c *duplexClient) session(ctx context.Context, n int) error {
	sid := fmt.Sprintf("s%d", n)
	split := n%2 == 0
	pad := ""
	if !split {
		pad = `,"pad":"` + strings.Repeat("p", 8192) + `"`
	}
	steps := []struct {
		msg, want string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},` +
			`"clientInfo":{"name":"duplex-client","version":"1.0.0"}` + pad + `}}`,
			duplexAnswer("1", "initialize", sid)},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}` + pad + `}}`,
			duplexAnswer("2", "tools/call", sid)},
	}
	for i, s := range steps {
		status, got, err := c.call(ctx, sid, fmt.Sprintf("%s-%d", sid, i), s.msg, split, n%4 == 0)
		if err != nil {
			return fmt.Errorf("session %s step %d: %w (got %d %q)", sid, i, err, status, got)
		}
		if s.want == "" {
			if status != http.StatusAccepted {
				return fmt.Errorf("session %s step %d: status %d, want 202", sid, i, status)
			}
			continue
		}
		if status != http.StatusOK || !strings.Contains(got, "data: "+s.want+"\n") {
			return fmt.Errorf("session %s step %d: got %d %q, want the answer %s", sid, i, status, got, s.want)
		}
	}
	return nil
}

// TestAnswerWhileBodyIsRead: a server answers on SSE while the request
// body is still arriving (golang/go#40747: Go's HTTP/1 server drains and
// closes an unread request body when the response starts; the proxy's
// upstream transport then failed its last read of that body and closed
// the connection the SSE answer streamed on). Through `mcptrail http`,
// every one of duplexSessions sessions gets every answer, and the capture
// holds every request body whole, no cut stream and no request the
// server seemingly left unanswered.
func TestAnswerWhileBodyIsRead(t *testing.T) {
	t.Parallel()
	g := &gates{m: make(map[string]chan struct{})}
	ts := httptest.NewServer(duplexTarget(g))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	tr := &http.Transport{MaxIdleConnsPerHost: duplexWorkers}
	defer tr.CloseIdleConnections()
	c := &duplexClient{url: tp.url("/mcp"), gates: g, http: &http.Client{Transport: tr}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	errs := runSessions(ctx, c, duplexSessions, duplexWorkers)
	for i, err := range errs {
		if i == 5 {
			t.Logf("... and %d more", len(errs)-5)
			break
		}
		t.Log(err)
	}
	if len(errs) > 0 {
		t.Errorf("%d of %d sessions lost an answer", len(errs), duplexSessions)
	}
	tr.CloseIdleConnections()
	tp.stop(t)
	checkDuplexCapture(t, tp.records(t), c.sent)
	blamed := 0
	for _, f := range exportFindings(t, runExport(t, tp.capture)) {
		if f == "http-request-without-response" {
			blamed++
		}
	}
	if blamed > 0 {
		t.Errorf("%d http-request-without-response findings: the capture blames the server for answers the proxy cut", blamed)
	}
}

// runSessions runs n sessions, workers at a time, and returns their errors.
func runSessions(ctx context.Context, c *duplexClient, n, workers int) []error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := c.session(ctx, i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// checkDuplexCapture checks that the capture has no stream-aborted note
// and that its request frames are exactly the bodies sent.
func checkDuplexCapture(t *testing.T, recs []capture.Record, sent []string) {
	t.Helper()
	want := make(map[string]int, len(sent))
	for _, s := range sent {
		want[s]++
	}
	aborted := 0
	for _, r := range recs {
		switch {
		case r.Type == capture.TypeNote && r.Note == httpproxy.NoteStreamAborted:
			if aborted++; aborted <= 3 {
				t.Logf("note %s %s: %s", r.Note, r.HTTP.Exchange, r.Text)
			}
		case r.Type == capture.TypeFrame && r.Dir == capture.C2S:
			want[string(r.Bytes())]--
		}
	}
	if aborted > 0 {
		t.Errorf("%d %s notes", aborted, httpproxy.NoteStreamAborted)
	}
	var missing, extra int
	for s, n := range want {
		switch {
		case n > 0:
			missing += n
			if missing <= 1 {
				t.Logf("a body sent but not captured whole: %.80q... (%d bytes)", s, len(s))
			}
		case n < 0:
			extra -= n
		}
	}
	if missing > 0 || extra > 0 {
		t.Errorf("request frames: %d bodies sent but not captured whole, %d captured that were not sent", missing, extra)
	}
}
