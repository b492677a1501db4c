package httpproxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

func TestJSONScan(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   int // index of the chunk that completes the value; -1 never
	}{
		{"object in one", []string{`{"a":1}`}, 0},
		{"split", []string{`{"a":`, `"}{"`, `}`}, 2},
		{"escaped quote", []string{`{"a":"\"}`, `"}`}, 1},
		{"escaped backslash", []string{`{"a":"\\`, `"}`}, 1},
		{"batch", []string{` [{"a":[1]},`, `{}]`}, 1},
		{"scalar", []string{`42`}, -1},
		{"torn", []string{`{"a":{}`}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s jsonScan
			got := -1
			for i, c := range tt.chunks {
				if s.feed([]byte(c)) && got < 0 {
					got = i
				}
			}
			if got != tt.want {
				t.Errorf("completed at chunk %d, want %d", got, tt.want)
			}
		})
	}
}

func TestSSEParser(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []string
	}{
		{"lf", []string{"data: {\"a\":1}\n\n"}, []string{`{"a":1}`}},
		{"crlf split", []string{"data: x\r", "\n\r\ndata: y\r\n\r\n"}, []string{"x", "y"}},
		{"cr only", []string{"data:x\r\rdata:y\r\r"}, []string{"x", "y"}},
		{"multi-line data", []string{"event: message\nid: 4\ndata: a\ndata: b\n\n"}, []string{"a\nb"}},
		{"priming and comments", []string{"id: 1\ndata:\n\n: keep-alive\n\ndata: z\n", "\n"}, []string{"z"}},
		{"unfinished", []string{"data: x\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p sseParser
			var got []string
			for _, c := range tt.chunks {
				p.feed([]byte(c), func(d []byte, _, _ string) { got = append(got, string(d)) })
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRedactAuth(t *testing.T) {
	for in, want := range map[string]string{
		"Bearer abc.def":     "Bearer [present]",
		"Basic dXNlcjpwdw==": "Basic [present]",
		"DPoP tok":           "DPoP [present] sha256=" + mcp.TokenHash("tok"),
		"abc":                "[present]",
		"":                   "[present]",
	} {
		if got := redactAuth(in); got != want {
			t.Errorf("redactAuth(%q) = %q, want %q", in, got, want)
		}
	}
}

// proxyTo starts a Proxy in front of target, capturing into a buffer.
func proxyTo(t *testing.T, target string) (*Proxy, *httptest.Server, *syncBuf) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	buf := new(syncBuf)
	p, err := New(&Options{Target: u, Capture: buf})
	if err != nil {
		t.Fatal(err)
	}
	return p, httptest.NewServer(p), buf
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) records(t *testing.T) []capture.Record {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, recs, _, err := capture.ReadAll(bytes.NewReader(s.b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestSSEFlushedAtOnce: the target sends one event, then waits; the client
// must read the event while the target is still waiting.
func TestSSEFlushedAtOnce(t *testing.T) {
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
		w.(http.Flusher).Flush()
		<-release
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	resp, err := http.Post(front.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(resp.Body).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		if !strings.Contains(line, "notifications/progress") {
			t.Errorf("first line %q", line)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the first event did not reach the client while the target waited: the proxy buffers")
	}
	close(release)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for _, r := range buf.records(t) {
		if r.Type == capture.TypeFrame {
			seqs = append(seqs, string(r.Dir)+" "+string(r.Bytes())[:20])
		}
	}
	want := []string{`c2s {"jsonrpc":"2.0","id`, `s2c {"jsonrpc":"2.0","me`, `s2c {"jsonrpc":"2.0","id`}
	if diff := cmp.Diff(want, seqs); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

// TestClientDisconnectMidStream: clients that go away in the middle of SSE
// streams leave a stream-aborted note each, and every goroutine ends.
func TestClientDisconnectMidStream(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer target.Close()
	base := runtime.NumGoroutine()
	p, front, buf := proxyTo(t, target.URL)
	const n = 50
	for range n {
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = bufio.NewReader(resp.Body).ReadString('\n')
		cancel()
		resp.Body.Close()
	}
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	http.DefaultClient.CloseIdleConnections()
	target.CloseClientConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // polling a count, not ordering events
	}
	if g := runtime.NumGoroutine(); g > base+2 {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines, %d before:\n%s", g, base, buf[:runtime.Stack(buf, true)])
	}
	aborted, frames := 0, 0
	for _, r := range buf.records(t) {
		switch {
		case r.Type == capture.TypeNote && r.Note == NoteStreamAborted:
			aborted++
		case r.Type == capture.TypeFrame:
			frames++
		}
	}
	if aborted != n || frames != 2*n {
		t.Errorf("%d stream-aborted notes and %d frames, want %d and %d", aborted, frames, n, 2*n)
	}
}

// TestLargeChunkedBody: a 50 MB request body sent chunked passes unchanged
// and is recorded whole as one frame, before the response.
func TestLargeChunkedBody(t *testing.T) {
	const size = 50 << 20
	body := make([]byte, size)
	copy(body, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"blob":"`)
	for i := 80; i < size-4; i++ {
		body[i] = 'a' + byte(i%26)
	}
	copy(body[size-4:], `"}}}`)
	sum := sha256.Sum256(body)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if sha256.Sum256(got) != sum {
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"changed"}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer target.Close()
	p, front, buf := proxyTo(t, target.URL)
	// An io.Reader without a length makes the client send it chunked.
	resp, err := http.Post(front.URL, "application/json", io.MultiReader(bytes.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if string(answer) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("answer %s: the body did not pass unchanged", answer)
	}
	var frames []capture.Record
	for _, r := range buf.records(t) {
		if r.Type == capture.TypeFrame {
			frames = append(frames, r)
		}
	}
	if len(frames) != 2 || frames[0].Dir != capture.C2S || frames[0].Size != size || sha256.Sum256(frames[0].Bytes()) != sum || frames[1].Seq <= frames[0].Seq {
		t.Errorf("frames: %d; first %s size %d", len(frames), frames[0].Dir, frames[0].Size)
	}
}
