package http_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// startForward runs `mcptrail http --forward --listen 127.0.0.1:0
// --capture DIR/session.jsonl extra...` and waits until it listens.
func startForward(t *testing.T, extra ...string) *tap {
	t.Helper()
	dir := t.TempDir()
	tp := &tap{capture: filepath.Join(dir, "session.jsonl")}
	args := append([]string{"http", "--forward", "--listen", "127.0.0.1:0", "--capture", tp.capture}, extra...)
	return launchTap(t, tp, dir, "", args)
}

// TestForwardSDK: the official go-sdk client, its HTTP client's proxy set
// to `mcptrail http --forward`, plays the modern conversation with a
// go-sdk server at the server's own URL. The capture holds the frames with
// their absolute URLs and the metadata document as an exchange record,
// and the export correlates the calls as the reverse proxy's does.
func TestForwardSDK(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := modernConversation()
	reverse := runExport(t, c.overHTTP(ctx, t).capture)

	srv := sdkpeer.NewServer(false)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"resource":"http://`+r.Host+`/mcp"}`)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	tp := startForward(t, "--allow-origin", ts.URL)
	// The setting is the line after the one the harness waited for: the
	// harness copies it into tp.stderr right after, so poll briefly.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(tp.stderr.String(), "HTTPS_PROXY=http://"+tp.addr); {
		if time.Now().After(deadline) {
			t.Fatalf("stderr does not give the proxy setting:\n%s", tp.stderr.String())
		}
		time.Sleep(10 * time.Millisecond) // polling an external process's output
	}
	proxy, _ := url.Parse("http://" + tp.addr)
	hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	resp, err := hc.Get(ts.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.run(ctx, t, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc, MaxRetries: -1})
	hc.CloseIdleConnections()
	tp.stop(t)

	frames, docs := 0, 0
	for _, r := range tp.records(t) {
		switch r.Type {
		case capture.TypeFrame:
			frames++
			if r.HTTP == nil || r.HTTP.URL != ts.URL+"/mcp" {
				t.Errorf("frame %d: envelope %+v, want URL %s/mcp", r.Seq, r.HTTP, ts.URL)
			}
		case capture.TypeExchange:
			docs++
			if x := r.Exchange; x.Method != "GET" || x.URL != ts.URL+"/.well-known/oauth-protected-resource/mcp" || x.Status != 200 || !strings.Contains(x.RespBody, `"resource"`) {
				t.Errorf("exchange %+v", x)
			}
		}
	}
	if frames == 0 || docs != 1 {
		t.Errorf("%d frames and %d exchange records, want some and 1", frames, docs)
	}
	forward := runExport(t, tp.capture)
	if f := exportFindings(t, forward); len(f) != 0 {
		t.Errorf("findings through --forward: %v, want none", f)
	}
	for _, key := range []string{"calls", "operations", "elicitations"} {
		if diff := cmp.Diff(comparable(t, reverse, key), comparable(t, forward, key)); diff != "" {
			t.Errorf("%s: reverse proxy (-) vs forward proxy (+):\n%s", key, diff)
		}
	}
}
