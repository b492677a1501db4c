package mock

import (
	"fmt"
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

// refusedProbe is an HTTP capture of a dual-era client whose
// server/discover probe a 2025 server refused with 400 and an error of
// null id, and whose tools/call failed with 500 naming the request.
func refusedProbe() string {
	h := `{"type":"session","time":"2026-07-28T12:00:00Z","format":1,"session_id":"t2","transport":"http","label":"t","target":"http://127.0.0.1:1/mcp"}`
	frame := func(seq int, dir, ex string, status int, msg string) string {
		st := ""
		if status != 0 {
			st = fmt.Sprintf(`,"status":%d`, status)
		}
		return fmt.Sprintf(`{"type":"frame","seq":%d,"time":"2026-07-28T12:00:00.%03dZ","dir":%q,"http":{"exchange":%q,"method":"POST","path":"/mcp"%s},"msg":%s}`,
			seq, seq, dir, ex, st, msg)
	}
	return strings.Join([]string{h,
		frame(1, "c2s", "x1", 0, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`),
		frame(2, "s2c", "x1", 400, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`),
		frame(3, "c2s", "x2", 0, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`),
		frame(4, "s2c", "x2", 200, `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`),
		frame(5, "c2s", "x3", 0, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"boom"}}`),
		frame(6, "s2c", "x3", 500, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"boom"}}`),
	}, "\n") + "\n"
}

// TestHTTPRecordedStatus: over HTTP, an answer recorded with an HTTP error
// status is served with it: a refusal of null id as recorded, byte for
// byte; an error naming its request under the live id. Over stdio (no
// status to give) the live id stands in, as for every answer.
func TestHTTPRecordedStatus(t *testing.T) {
	script := loadScript(t, refusedProbe())
	srv := httptest.NewServer(New(script, nil).Handler(nil))
	defer srv.Close()
	tests := []struct {
		name, body string
		want       int
		answer     string
	}{
		{"refused probe", `{"jsonrpc":"2.0","id":"p1","method":"server/discover","params":{}}`, http.StatusBadRequest,
			`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`},
		{"initialize", `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`, http.StatusOK, `"id":7`},
		{"failed call", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"boom"}}`, http.StatusInternalServerError,
			`{"jsonrpc":"2.0","id":8,"error":{"code":-32603,"message":"boom"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := srv.Client().Post(srv.URL+"/mcp", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.want || !strings.Contains(string(body), tt.answer) {
				t.Errorf("status %d body %s, want %d with %s", resp.StatusCode, body, tt.want, tt.answer)
			}
		})
	}
	got := serve(New(script, nil), `{"jsonrpc":"2.0","id":"p1","method":"server/discover","params":{}}`)
	if len(got) != 1 || !strings.Contains(got[0].msg, `"id":"p1"`) {
		t.Errorf("over stdio the probe got %+v, want the recorded error under the live id", got)
	}
}
