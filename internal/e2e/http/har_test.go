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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// The canaries of the HAR tests: a bearer token, which the capture never
// keeps, and a secret in an Mcp-Param-Token header, which --redact-secrets
// scrubs.
const (
	harAuthCanary  = "har-auth-canary-5e61d0"
	harParamCanary = "har-param-canary-93b7aa"
)

// headerAdder adds its headers to every request.
type headerAdder struct {
	h    http.Header
	next http.RoundTripper
}

func (a headerAdder) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range a.h {
		r.Header[k] = v
	}
	return a.next.RoundTrip(r)
}

// exportHAR runs `mcptrail export -T har flags... path` and returns the
// archive.
func exportHAR(t *testing.T, path string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bins.mcptrail, append(append([]string{"export", "-T", "har"}, flags...), path)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("mcptrail export -T har %s: %v\nstderr:\n%s", path, err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestExportHARSDK: each era's go-sdk conversation over Streamable HTTP,
// with a bearer token on every request, exports as a schema-valid HAR 1.2
// archive with one entry per HTTP exchange, whose Authorization header
// holds only the scheme, never the token.
func TestExportHARSDK(t *testing.T) {
	t.Parallel()
	schema := testbin.HARSchema(t)
	for _, c := range []conversation{modernConversation(), legacyConversation()} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			srv := sdkpeer.NewServer(c.legacy)
			h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
				&mcp.StreamableHTTPOptions{Stateless: !c.legacy})
			ts := httptest.NewServer(h)
			defer ts.Close()
			tp := startTap(t, ts.URL+"/mcp")
			client := &http.Client{Transport: headerAdder{
				h: http.Header{"Authorization": {"Bearer " + harAuthCanary}}, next: http.DefaultTransport}}
			c.run(ctx, t, &mcp.StreamableClientTransport{Endpoint: tp.url("/mcp"), HTTPClient: client, MaxRetries: -1})
			tp.stop(t)
			har := exportHAR(t, tp.capture)
			testbin.ValidateHAR(t, schema, har)
			testbin.NoCanary(t, harAuthCanary, "the HAR", string(har))
			exchanges := map[string]bool{}
			for _, r := range tp.records(t) {
				if r.HTTP != nil && r.HTTP.Exchange != "" {
					exchanges[r.HTTP.Exchange] = true
				}
			}
			if n := strings.Count(string(har), `"exchange": "x`); n != len(exchanges) || n < len(c.calls) {
				t.Errorf("%d entries, want one per exchange (%d), at least one per tool call (%d)", n, len(exchanges), len(c.calls))
			}
			if !strings.Contains(string(har), `"value": "Bearer [present]"`) {
				t.Errorf("no Authorization header kept as its scheme in the HAR")
			}
		})
	}
}

// TestExportHARRedact: header values under a secret key (an
// Mcp-Param-Token header) are in the HAR of an unredacted capture, and
// gone under export --redact-secrets; the bearer token is never there.
func TestExportHARRedact(t *testing.T) {
	t.Parallel()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, redactStream)
	}))
	defer target.Close()
	tp := startTap(t, target.URL+"/mcp")
	req, err := http.NewRequest("POST", tp.url("/mcp"), strings.NewReader(redactBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+harAuthCanary)
	req.Header.Set("Mcp-Param-Token", harParamCanary)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	tp.stop(t)
	schema := testbin.HARSchema(t)
	plain := exportHAR(t, tp.capture)
	testbin.ValidateHAR(t, schema, plain)
	if !strings.Contains(string(plain), harParamCanary) || !strings.Contains(string(plain), sseSecret) {
		t.Fatalf("the unredacted HAR lacks the header canary or the SSE secret; the test proves nothing:\n%s", plain)
	}
	redacted := exportHAR(t, tp.capture, "--redact-secrets")
	testbin.ValidateHAR(t, schema, redacted)
	for _, s := range []string{harAuthCanary, harParamCanary, reqSecret, sseSecret} {
		testbin.NoCanary(t, s, "the --redact-secrets HAR", string(redacted))
	}
	testbin.NoCanary(t, harAuthCanary, "the HAR", string(plain))
	if !strings.Contains(string(redacted), `"name": "Mcp-Param-Token"`) {
		t.Errorf("the redacted HAR lost the Mcp-Param-Token header itself:\n%s", redacted)
	}
}
