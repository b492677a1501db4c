package replay_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// authToken is the bearer token the auth server wants; no output may
// hold it.
const authToken = "replay-TOKEN-CANARY-7f3e"

// serveAuthHTTP serves the modern sdkpeer server over Streamable HTTP
// behind a check that answers 401 to any POST without the bearer token.
func serveAuthHTTP(t *testing.T) string {
	t.Helper()
	srv := sdkpeer.NewServer(false)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+authToken {
			w.Header().Set("WWW-Authenticate", `Bearer realm="replay-e2e"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestReplayHTTPHeader replays a recording against a server that wants a
// bearer token: without --header it is refused (exit 1, HTTP 401 named);
// with --header 'Authorization: Bearer ...' nothing differs (exit 0), the
// new capture keeps the header as the tap keeps a client's (scheme only)
// and no output or capture holds the token.
func TestReplayHTTPHeader(t *testing.T) {
	t.Parallel()
	era := httpEras[0]
	rec := recordHTTP(t, serveHTTP(t, era.legacy, ""), era.legacy, era.version, era.tools)
	target := serveAuthHTTP(t)

	o := runReplay(t, rec, "--slower-than", "0", "--target", target)
	if o.code != 1 || !strings.Contains(o.stderr, "401") {
		t.Errorf("replay without the token exited %d, want 1 and the 401 named\nstderr:\n%s", o.code, o.stderr)
	}

	o = runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--target", target, "--header", "Authorization: Bearer "+authToken)
	if o.code != 0 || o.stdout != "" {
		t.Fatalf("replay with the token exited %d, want 0 and nothing on stdout\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	got, err := os.ReadFile(o.capture)
	if err != nil {
		t.Fatalf("the new capture: %v\nstderr:\n%s", err, o.stderr)
	}
	for name, text := range map[string]string{"the new capture": string(got), "stdout": o.stdout, "stderr": o.stderr} {
		if strings.Contains(text, authToken) {
			t.Errorf("%s holds the token", name)
		}
	}
	if !strings.Contains(string(got), `"Authorization":"Bearer [present]"`) {
		t.Errorf("the new capture does not keep the Authorization header as Bearer [present]:\n%.600s", got)
	}
}
