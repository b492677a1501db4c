package http_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
)

// shutdownGrace is how long `mcptrail http` gives open streams when it
// stops (the README's 2 s).
const shutdownGrace = 2 * time.Second

// stopSlack is what a stop may take beyond the grace on a loaded machine:
// cutting the streams, ending the capture, exiting; plus the second a
// race-built binary sleeps at exit (GORACE atexit_sleep_ms).
func stopSlack() time.Duration {
	if raceBuild {
		return 2 * time.Second
	}
	return time.Second
}

// endlessTarget answers a GET (the legacy standalone stream) and a POST
// with an SSE stream: one event, flushed, then nothing until the client
// goes away or the test ends.
func endlessTarget(t *testing.T) *httptest.Server {
	t.Helper()
	quit := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		if _, err := r.Body.Read(make([]byte, 1)); err != nil && r.Method == http.MethodPost {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message\ndata: "+duplexProgress+"\n\n")
		w.(http.Flusher).Flush()
		<-quit
	}))
	t.Cleanup(func() { close(quit); ts.Close() })
	return ts
}

// openStream opens an SSE stream through the tap and reads its first
// event, so the stream is known to be open end to end.
func openStream(t *testing.T, c *http.Client, method, url string) *http.Response {
	t.Helper()
	var body io.Reader
	switch method {
	case http.MethodPost:
		body = strings.NewReader(toolCallBody)
	case "POST-open":
		// The message, then a body that does not end until the test does.
		pr, pw := io.Pipe()
		go func() { _, _ = io.WriteString(pw, toolCallBody) }()
		t.Cleanup(func() { pw.Close() })
		method, body = http.MethodPost, pr
	}
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", "legacy-1")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "event: message") {
		t.Fatalf("first line of the stream: %q, %v", line, err)
	}
	return resp
}

// TestStopSignals: SIGTERM, SIGINT and SIGHUP each stop `mcptrail http`
// with exit status 0 and an end record; with an SSE stream still open (a
// legacy GET stream, a POST answer, over HTTP/1.1 or h2c, even one whose
// request body never ends), within the 2 s grace, and the capture notes
// the stream was cut; a second signal cuts the grace short.
func TestStopSignals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		stream string         // "" (none), GET, POST or POST-open (a body that never ends)
		h2c    bool           // the client speaks HTTP/2 (h2c)
		then   syscall.Signal // a second signal, sent right after sig; 0 for none
	}{
		{"hup", syscall.SIGHUP, "", false, 0},
		{"hup-get-stream", syscall.SIGHUP, http.MethodGet, false, 0},
		{"term-get-stream", syscall.SIGTERM, http.MethodGet, false, 0},
		{"term-post-stream", syscall.SIGTERM, http.MethodPost, false, 0},
		{"int-post-stream", syscall.SIGINT, http.MethodPost, false, 0},
		{"term-get-stream-h2c", syscall.SIGTERM, http.MethodGet, true, 0},
		{"term-post-open-body", syscall.SIGTERM, "POST-open", false, 0},
		{"term-post-open-body-h2c", syscall.SIGTERM, "POST-open", true, 0},
		// A second signal cuts the grace short.
		{"term-then-int", syscall.SIGTERM, http.MethodGet, false, syscall.SIGINT},
		{"term-post-stream-h2c", syscall.SIGTERM, http.MethodPost, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := endlessTarget(t)
			tp := startTap(t, ts.URL+"/mcp")
			if tc.stream != "" {
				c := http.DefaultClient
				if tc.h2c {
					c = h2cClient()
				}
				resp := openStream(t, c, tc.stream, tp.url("/mcp"))
				defer resp.Body.Close()
			}
			elapsed := tp.signal(t, tc.sig, tc.then)
			limit := shutdownGrace + stopSlack()
			if tc.then != 0 {
				limit = stopSlack()
			}
			if tc.stream != "" && elapsed > limit {
				t.Errorf("exited %v after %v with a stream open, want within %v", elapsed.Round(time.Millisecond), tc.sig, limit)
			}
			recs := tp.records(t)
			if last := recs[len(recs)-1]; last.Type != capture.TypeEnd {
				t.Errorf("last record is %s, want an end record", last.Type)
			}
			if tc.stream != "" && !hasNote(recs, httpproxy.NoteStreamAborted) {
				t.Errorf("no %s note for the stream the stop cut", httpproxy.NoteStreamAborted)
			}
		})
	}
}

// signal sends sig (and then, unless it is 0), waits for mcptrail to exit
// with status 0 and returns how long that took from the first signal.
func (tp *tap) signal(t *testing.T, sig, then syscall.Signal) time.Duration {
	t.Helper()
	start := time.Now()
	if err := tp.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	if then != 0 {
		if err := tp.cmd.Process.Signal(then); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-tp.done:
		elapsed := time.Since(start)
		if err != nil {
			t.Errorf("mcptrail http exited with %v after %v; stderr:\n%s", err, sig, tp.stderr.String())
		}
		return elapsed
	case <-time.After(15 * time.Second):
		_ = tp.cmd.Process.Kill()
		<-tp.done
		t.Fatalf("mcptrail http did not exit after %v; stderr:\n%s", sig, tp.stderr.String())
	}
	return 0
}

// hasNote reports whether recs hold a note of kind.
func hasNote(recs []capture.Record, kind string) bool {
	for _, r := range recs {
		if r.Type == capture.TypeNote && r.Note == kind {
			return true
		}
	}
	return false
}
