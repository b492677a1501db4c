package mock

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestNothingLeaks serves a legacy call over HTTP whose client goes away
// while the mock waits for its elicitation answer, and a stdio session
// whose input ends; afterwards the goroutine and descriptor counts are back
// at their baseline. Not parallel: it counts the process's goroutines.
func TestNothingLeaks(t *testing.T) {
	base := testbin.CountUsage()
	m := New(loadScript(t, legacy()), nil)

	srv := httptest.NewServer(m.Handler(nil))
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"book","arguments":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "event: message\n" {
		t.Fatalf("first SSE line %q, %v", line, err)
	}
	cancel() // the client goes away without answering
	resp.Body.Close()
	srv.Close() // waits for the handler to return

	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- New(loadScript(t, legacy()), nil).ServeStdio(pr, &out) }()
	if _, err := pw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after its input ended")
	}
	if !strings.Contains(out.String(), `"id":1,"result"`) {
		t.Errorf("stdio output %q lacks the initialize result", out.String())
	}
	srv.Client().CloseIdleConnections()
	testbin.NoLeak(t, base, 10*time.Second)
}
