package http_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSSELatency: the target emits events 200 ms apart on a POST's SSE
// stream; through `mcptrail http` the client must see each within a few
// milliseconds of the target sending it (the proxy does not batch).
func TestSSELatency(t *testing.T) {
	t.Parallel()
	const events = 5
	var mu sync.Mutex
	sent := make([]time.Time, 0, events)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for i := range events {
			if i > 0 {
				time.Sleep(200 * time.Millisecond)
			}
			mu.Lock()
			sent = append(sent, time.Now())
			mu.Unlock()
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":%d}}\n\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	req, _ := http.NewRequest(http.MethodPost, tp.url("/mcp"), strings.NewReader(toolCallBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if strings.HasPrefix(line, "data:") {
			got = append(got, time.Now())
		}
		if err != nil {
			if err != io.EOF {
				t.Fatalf("reading the event stream: %v (a cut stream, not a slow one)", err)
			}
			break
		}
	}
	resp.Body.Close()
	tp.stop(t)
	if len(got) != events {
		t.Fatalf("client saw %d events, want %d", len(got), events)
	}
	var worst time.Duration
	for i := range got {
		if d := got[i].Sub(sent[i]); d > worst {
			worst = d
		}
	}
	t.Logf("worst event delay through the proxy: %v", worst)
	// Well under the 200 ms between events, so batching would show, with
	// room for a loaded CI machine.
	if worst > 100*time.Millisecond {
		t.Errorf("an event reached the client %v after the target sent it; want a few ms", worst)
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
