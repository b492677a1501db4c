package httpproxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// leakTarget answers by the request: a JSON result, a finished SSE
// stream, an SSE stream that stays open until the client goes away, 202
// for a notification, 405 for GET.
func leakTarget() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		switch b := string(body); {
		case strings.Contains(b, `"notifications/`):
			w.WriteHeader(http.StatusAccepted)
		case strings.Contains(b, `"stream"`):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n")
			w.(http.Flusher).Flush()
			if strings.Contains(b, `"hang"`) {
				<-r.Context().Done()
				return
			}
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		}
	}))
}

// leakExchange runs exchange i of five kinds through front; kind 2
// aborts its stream after the first event.
func leakExchange(c *http.Client, front string, i int) error {
	method, body := http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	switch i % 5 {
	case 1:
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stream"}}`
	case 2:
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stream","arguments":{"hang":true}}}`
	case 3:
		body = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	case 4:
		method, body = http.MethodGet, ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, front, strings.NewReader(body))
	if err != nil {
		return err
	}
	if body == "" {
		req.Body = http.NoBody
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if i%5 == 2 {
		if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
			return fmt.Errorf("first event: %w", err)
		}
		cancel()
		return nil
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count fds: %v", err)
	}
	return len(ents)
}

// TestNoLeak: 1,000 exchanges (JSON, SSE, aborted SSE, 202, 405) from 8
// clients at once through an in-process proxy capturing to a file; once
// everything is closed, goroutines and open fds are back at baseline, and
// the capture has a stream-aborted note per aborted stream.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 exchanges")
	}
	const n, workers = 1000, 8
	path := filepath.Join(t.TempDir(), "leak.jsonl")
	baseG, baseFD := settle(t, -1, -1)
	target := leakTarget()
	u, _ := url.Parse(target.URL)
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(&Options{Target: u, Capture: file})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if err := leakExchange(client, front.URL, i); err != nil {
					errs <- fmt.Errorf("exchange %d: %w", i, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	peakG, peakFD := runtime.NumGoroutine(), openFDs(t)
	client.CloseIdleConnections()
	front.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	target.Close()
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
	g, fd := settle(t, baseG, baseFD)
	t.Logf("goroutines: baseline %d, after the exchanges %d, at the end %d; fds: %d, %d, %d", baseG, peakG, g, baseFD, peakFD, fd)
	if g > baseG || fd > baseFD {
		buf := make([]byte, 1<<20)
		t.Fatalf("leak: goroutines %d (baseline %d), fds %d (baseline %d)\n%s", g, baseG, fd, baseFD, buf[:runtime.Stack(buf, true)])
	}
	checkLeakCapture(t, path, n)
}

// settle waits (up to 5 s) until goroutines and fds are at most g and fd
// and returns them; a negative g only lets the runtime settle for 100 ms,
// to take a baseline.
func settle(t *testing.T, g, fd int) (int, int) {
	t.Helper()
	if g < 0 {
		time.Sleep(100 * time.Millisecond) // letting the runtime settle before a baseline, not ordering events
		return runtime.NumGoroutine(), openFDs(t)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		cg, cfd := runtime.NumGoroutine(), openFDs(t)
		if cg <= g && cfd <= fd || time.Now().After(deadline) {
			return cg, cfd
		}
		time.Sleep(20 * time.Millisecond) // polling counts, not ordering events
	}
}

// checkLeakCapture counts the capture's frames and notes.
func checkLeakCapture(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, recs, dmg, err := capture.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var frames, aborted int
	for _, r := range recs {
		switch {
		case r.Type == capture.TypeFrame:
			frames++
		case r.Type == capture.TypeNote && r.Note == NoteStreamAborted:
			aborted++
		}
	}
	// Per 5 exchanges: JSON 2, SSE 3, aborted SSE 2 (the request, the
	// event that arrived), 202 2, GET 2.
	if wantFrames, wantAborted := n/5*11, n/5; frames != wantFrames || aborted != wantAborted || dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("%d frames, %d stream-aborted notes, damage %+v; want %d and %d", frames, aborted, dmg, wantFrames, wantAborted)
	}
}
