package http_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// lockstepTarget answers a POST with an SSE stream of events, writing and
// flushing event i only once the client has seen event i-1 (a receive on
// seen): a proxy that held an event back for a later one would never get
// the next, and the stream would stall. It gives up on a stalled stream
// after stall, reporting it on failed.
func lockstepTarget(events int, seen <-chan struct{}, stall time.Duration, failed chan<- string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for i := range events {
			if i > 0 {
				select {
				case <-seen:
				case <-time.After(stall):
					failed <- fmt.Sprintf("the client did not see event %d within %v of its flush: the proxy held it back", i-1, stall)
					return
				}
			}
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":%d}}\n\n", i)
			w.(http.Flusher).Flush()
		}
	}))
}

// readEvents posts a tool call through tp and reads the SSE stream to its
// end, signalling seen (buffered for every event) after each; it returns
// how many it saw.
func readEvents(t testing.TB, tp *tap, seen chan<- struct{}) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, tp.url("/mcp"), strings.NewReader(toolCallBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if strings.HasPrefix(line, "data:") {
			n++
			seen <- struct{}{} // buffered for every event: the last has no reader

		}
		if err != nil {
			if err != io.EOF {
				t.Fatalf("reading the event stream: %v (a cut stream, not a slow one)", err)
			}
			return n
		}
	}
}

// TestSSENotBatched: the target writes each event of a POST's SSE stream
// only once the client, through `mcptrail http`, has seen the one before;
// so the stream ends only if the proxy forwards every event as it comes
// (it does not batch), and the capture holds each as a frame. The 10 s a
// stalled event is given is a liveness bound, not a latency one
// (BenchmarkSSEEventLatency measures that).
func TestSSENotBatched(t *testing.T) {
	t.Parallel()
	const events = 5
	seen, failed := make(chan struct{}, events), make(chan string, 1)
	ts := lockstepTarget(events, seen, 10*time.Second, failed)
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	got := readEvents(t, tp, seen)
	tp.stop(t)
	select {
	case msg := <-failed:
		t.Fatal(msg)
	default:
	}
	if got != events {
		t.Fatalf("client saw %d events, want %d", got, events)
	}
	frames := 0
	for _, r := range tp.records(t) {
		if r.Type == "frame" && r.Dir == "s2c" {
			frames++
		}
	}
	if frames != events {
		t.Errorf("%d s2c frames in the capture, want %d", frames, events)
	}
}

// BenchmarkSSEEventLatency measures an SSE event's way from the target's
// flush to the client's read through `mcptrail http`: each op is one
// event, sent only once the client has read the one before, so ns/op is
// the round of one event (target → proxy → client, and the client's
// signal back).
func BenchmarkSSEEventLatency(b *testing.B) {
	seen, failed := make(chan struct{}, b.N+1), make(chan string, 1)
	ts := lockstepTarget(b.N+1, seen, 10*time.Second, failed)
	defer ts.Close()
	tp := startTap(b, ts.URL+"/mcp")
	b.ResetTimer()
	got := readEvents(b, tp, seen)
	b.StopTimer()
	tp.stop(b)
	select {
	case msg := <-failed:
		b.Fatal(msg)
	default:
	}
	if got != b.N+1 {
		b.Fatalf("client saw %d events, want %d", got, b.N+1)
	}
}
