package http_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
)

const (
	// reqSecret and sseSecret are planted under preset secret keys.
	reqSecret = "sk-live-request-4c1d9e"
	sseSecret = "tok-sse-event-77ab02"
)

// redactBody is a tools/call whose arguments hold a secret under api_key.
const redactBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"user":"ann","api_key":"` + reqSecret + `"}}}`

// redactStream is the SSE answer: a progress notification, then a result
// whose structured content holds a token.
const redactStream = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n" +
	"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"structuredContent\":{\"session\":{\"token\":\"" + sseSecret + "\"}}}}\n\n"

// TestRedactHTTP: with --redact-secrets (or the [redact] table of
// .mcptrail.toml), secrets under preset keys in a request body and in an
// SSE event are absent from the capture, while the bytes forwarded both
// ways are exactly what the peers sent.
func TestRedactHTTP(t *testing.T) {
	tests := []struct {
		name   string
		config string // .mcptrail.toml contents, or ""
		flags  []string
	}{
		{name: "flag", flags: []string{"--redact-secrets"}},
		{name: "config", config: "[redact]\nsecrets = true\n"},
		{name: "config key", config: "[redact]\nkeys = [\"api_key\", \"token\"]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var gotBody []byte
			target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				gotBody = b
				mu.Unlock()
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, redactStream)
			}))
			defer target.Close()
			wd := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(wd, ".mcptrail.toml"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			tp := startTapIn(t, wd, target.URL+"/mcp", tt.flags...)
			resp, err := http.Post(tp.url("/mcp"), "application/json", strings.NewReader(redactBody))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			tp.stop(t)
			if string(got) != redactStream {
				t.Errorf("the client got %q, want the target's bytes %q", got, redactStream)
			}
			mu.Lock()
			if string(gotBody) != redactBody {
				t.Errorf("the target got %q, want the client's bytes %q", gotBody, redactBody)
			}
			mu.Unlock()
			file, err := os.ReadFile(tp.capture)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{reqSecret, sseSecret} {
				if bytes.Contains(file, []byte(s)) {
					t.Errorf("the capture holds the secret %q", s)
				}
			}
			checkRedactedFrames(t, tp.records(t))
		})
	}
}

// checkRedactedFrames: the header says the capture was redacted; the
// request and the result frame are marked redacted, keep their size as
// received and hold the placeholder; the progress notification is intact.
func checkRedactedFrames(t *testing.T, recs []capture.Record) {
	t.Helper()
	if !recs[0].Redacted {
		t.Error("the session header is not marked redacted")
	}
	var frames []capture.Record
	for _, r := range recs {
		if r.Type == capture.TypeFrame {
			frames = append(frames, r)
		}
	}
	if len(frames) != 3 {
		t.Fatalf("%d frames, want 3 (request, progress, result)", len(frames))
	}
	wantSize := []int{len(redactBody), -1, -1}
	for i, f := range frames {
		hasPlaceholder := strings.Contains(string(f.Bytes()), capture.RedactedValue)
		secretFrame := i != 1
		if f.Redacted != secretFrame || hasPlaceholder != secretFrame {
			t.Errorf("frame %d (%s): redacted=%v placeholder=%v, want %v", i, f.Bytes(), f.Redacted, hasPlaceholder, secretFrame)
		}
		if wantSize[i] >= 0 && f.Size != wantSize[i] {
			t.Errorf("frame %d: size %d, want %d as received", i, f.Size, wantSize[i])
		}
		if f.HTTP == nil || f.HTTP.Exchange == "" {
			t.Errorf("frame %d lost its HTTP envelope", i)
		}
	}
	if !strings.Contains(string(frames[0].Bytes()), `"user":"ann"`) {
		t.Errorf("the request lost what was not secret: %s", frames[0].Bytes())
	}
}
