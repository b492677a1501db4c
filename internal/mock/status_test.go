package mock

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPUnknownMethodStatus: over HTTP, a 2026-07-28 request for a
// method the recording never saw gets 404 with the -32601 body (the spec
// pins both); a legacy request keeps 200, where 404 would mean "session
// gone"; a known method with unmatched arguments keeps 200.
func TestHTTPUnknownMethodStatus(t *testing.T) {
	srv := httptest.NewServer(New(loadScript(t, legacy()), nil).Handler(nil))
	defer srv.Close()
	tests := []struct {
		name, version, body string
		want                int
		code                string
	}{
		{"modern unknown method", "2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"nope/never"}`, http.StatusNotFound, "-32601"},
		{"legacy unknown method", "2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"nope/never"}`, http.StatusOK, "-32601"},
		{"modern no match", "2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"never-listed"}}`, http.StatusOK, "-32602"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("MCP-Protocol-Version", tt.version)
			req.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.want || !strings.Contains(string(body), `"code":`+tt.code) {
				t.Errorf("status %d body %s, want %d with code %s", resp.StatusCode, body, tt.want, tt.code)
			}
		})
	}
}
