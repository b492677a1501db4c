package http_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestReverseAuthTruth: through the reverse proxy, an OAuth-protected
// server's 401 with a JSON body is a status frame the text export shows
// with its WWW-Authenticate; its protected-resource metadata is an
// exchange record, not an invalid frame; and since that metadata names
// the server's URL, not mcptrail's, one stderr line points to --forward.
func TestReverseAuthTruth(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"unauthorized"}`)
	})
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"resource":"http://`+r.Host+`/mcp","authorization_servers":["http://`+r.Host+`"]}`)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")
	req, _ := http.NewRequest("POST", tp.url("/mcp"), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for range 2 {
		resp, err := http.Get(tp.url("/.well-known/oauth-protected-resource/mcp"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	tp.stop(t)
	stderr := tp.stderr.String()
	if n := strings.Count(stderr, "protected-resource metadata names resource "+ts.URL+"/mcp"); n != 1 || !strings.Contains(stderr, "--forward") {
		t.Errorf("%d metadata hints, want 1 pointing to --forward; stderr:\n%s", n, stderr)
	}
	exchanges := 0
	for _, r := range tp.records(t) {
		if r.Type == capture.TypeExchange {
			exchanges++
			if x := r.Exchange; x.URL != ts.URL+"/.well-known/oauth-protected-resource/mcp" || x.Status != 200 {
				t.Errorf("exchange %+v", x)
			}
		}
		if r.Type == capture.TypeFrame && strings.HasPrefix(r.HTTP.Path, "/.well-known") {
			t.Errorf("the metadata document is a frame: %+v", r)
		}
	}
	if exchanges != 2 {
		t.Errorf("%d exchange records, want 2", exchanges)
	}
	for _, f := range exportFindings(t, runExport(t, tp.capture)) {
		if strings.Contains(f, "invalid-frame") {
			t.Errorf("finding %s", f)
		}
	}
	text := runText(t, tp.capture)
	if !strings.Contains(text, `error 401 "HTTP 401 Unauthor`) || !strings.Contains(text, "http-status") || strings.Contains(text, `error 0 ""`) {
		t.Errorf("the text export does not show the 401 and its WWW-Authenticate:\n%s", text)
	}
}

// runText runs `mcptrail export -T text capture`.
func runText(t *testing.T, path string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, "export", "-T", "text", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("export -T text: %v\n%s", err, stderr.String())
	}
	return stdout.String()
}
