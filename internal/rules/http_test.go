package rules

import (
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

func TestHTTPHeaderRules(t *testing.T) {
	b64 := "=?base64?" + "w6k=" + "?=" // "é"
	tests := []struct {
		name    string
		steps   []step
		finding []string
	}{
		{"all present", []step{post("x1", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x1", 200, res("1", `{"resultType":"complete"}`), jsonCT)}, nil},
		{"base64 name", []step{post("x1", tool("1", "é", "{}", ""), modernHeaders(b64)), answer("x1", 200, res("1", `{"resultType":"complete"}`), jsonCT)}, nil},
		{"no version", []step{post("x1", tool("1", "a", "{}", ""), map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "a"})}, []string{"http-protocol-version-header@1"}},
		{"version differs", []step{post("x1", tool("1", "a", "{}", ""), map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Method": "tools/call", "Mcp-Name": "a"})}, []string{"http-protocol-version-header@1"}},
		{"no method", []step{post("x1", tool("1", "a", "{}", ""), map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Name": "a"})}, []string{"http-method-header@1"}},
		{"name differs", []step{post("x1", tool("1", "a", "{}", ""), modernHeaders("b"))}, []string{"http-name-header@1"}},
		{"batch", []step{post("x1", "["+tool("1", "a", "{}", "")+"]", nil)}, []string{"batch-frame@1", "http-batch@1"}},
		{"wrong content type", []step{post("x1", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x1", 200, res("1", `{"resultType":"complete"}`), map[string]string{"Content-Type": "text/plain"})}, []string{"http-response-content-type@2"}},
		{"request answered 202", []step{post("x1", tool("1", "a", "{}", ""), modernHeaders("a")), answer("x1", 202, "", nil)}, []string{"http-request-without-response@2"}},
		{"notification answered 200", []step{post("x1", notif("notifications/x", "{}"), map[string]string{"MCP-Protocol-Version": "2026-07-28"}), answer("x1", 200, "", nil)}, []string{"http-notification-status@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.finding, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHTTPErrorStatus: each answer with a failing status raises one
// http-error-status, about its call; the protocol's 400 (a 2025 server
// answering a dual-era probe), 405 to a GET and successes raise nothing,
// nor does the probe stay unanswered.
func TestHTTPErrorStatus(t *testing.T) {
	t.Parallel()
	plain := map[string]string{"Content-Type": "text/plain"}
	sse := map[string]string{"Content-Type": "text/event-stream"}
	discover := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{` + meta + `}}`
	}
	probe := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
	get := func(ex string, status int) []step {
		q, a := post(ex, "", nil), answer(ex, status, "", nil)
		q.http.Method, a.http.Method = "GET", "GET"
		return []step{q, a}
	}
	call := func(ex, id string) step { return post(ex, tool(id, "a", "{}", ""), modernHeaders("a")) }
	authed := func(s step) step {
		s.http.Headers = maps.Clone(s.http.Headers)
		s.http.Headers["Authorization"] = "Bearer [present]"
		return s
	}
	tests := []struct {
		name    string
		steps   []step
		finding []string
		message string
	}{
		{"401 to a bearer token", []step{authed(call("x1", "1")), answer("x1", 401, "", map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}), endRec()},
			[]string{"http-error-status@2"}, `tools/call was answered HTTP 401 Unauthorized; WWW-Authenticate: Bearer error="invalid_token"`},
		{"401 challenge to an anonymous request: the authorization flow starts", []step{call("x1", "1"),
			answer("x1", 401, "", map[string]string{"WWW-Authenticate": `Bearer scope="s"`}), endRec()}, nil, ""},
		{"401 without a challenge", []step{call("x1", "1"), answer("x1", 401, "", nil), endRec()},
			[]string{"http-error-status@2"}, `tools/call was answered HTTP 401 Unauthorized`},
		{"403", []step{call("x1", "1"), answer("x1", 403, "forbidden origin", plain), endRec()},
			[]string{"http-error-status@2"}, "tools/call was answered HTTP 403 Forbidden"},
		{"404", []step{call("x1", "1"), answer("x1", 404, "404 page not found", plain), endRec()},
			[]string{"http-error-status@2"}, "tools/call was answered HTTP 404 Not Found"},
		{"500 with a JSON-RPC error", []step{call("x1", "1"), answer("x1", 500, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`, jsonCT), endRec()},
			[]string{"http-error-status@2"}, "tools/call was answered HTTP 500 Internal Server Error"},
		{"503 event stream, flagged once at the answer", []step{call("x1", "1"), answer("x1", 503, notif("notifications/progress", "{}"), sse),
			answer("x1", 503, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"busy"}}`, sse), endRec()},
			[]string{"http-error-status@3"}, "tools/call was answered HTTP 503 Service Unavailable"},
		{"502 target down", []step{call("x1", "1"), answer("x1", 502, "", nil), note(capture.Record{Note: "upstream-error", Text: "answered 502: connection refused",
			HTTP: &capture.HTTP{Exchange: "x1", Method: "POST", Path: "/mcp"}}), endRec()},
			[]string{"http-error-status@2"}, "tools/call was answered HTTP 502 Bad Gateway"},
		{"notification 401", []step{post("x1", notif("notifications/initialized", "{}"), map[string]string{"MCP-Protocol-Version": "2026-07-28"}), answer("x1", 401, "", nil), endRec()},
			[]string{"http-error-status@2"}, "the notification POSTed at seq 1 was answered HTTP 401 Unauthorized"},
		{"GET 404", append(get("x1", 404), endRec()), []string{"http-error-status@2"}, "GET /mcp was answered HTTP 404 Not Found"},
		{"GET 405", append(get("x1", 405), endRec()), nil, ""},
		{"probe 400, null id", []step{post("x1", discover(`"p"`), probe), answer("x1", 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`, jsonCT), endRec()}, nil, ""},
		{"probe 400, other id", []step{post("x1", discover(`"p"`), probe), answer("x1", 400, `{"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"no session"}}`, jsonCT), endRec()}, nil, ""},
		{"probe 400, plain text", []step{post("x1", discover(`"p"`), probe), answer("x1", 400, "Bad Request: missing session", plain), endRec()}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			fs := snap.Findings.Slice()
			if diff := cmp.Diff(tt.finding, findingLines(fs), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("findings (-want +got):\n%s", diff)
			}
			if len(fs) == 0 {
				return
			}
			if fs[0].Message != tt.message {
				t.Errorf("message %q, want %q", fs[0].Message, tt.message)
			}
			if wantCall := snap.Calls.Len() - 1; fs[0].Call != wantCall || fs[0].Severity != "warning" {
				t.Errorf("finding about call %d with severity %q, want call %d, warning", fs[0].Call, fs[0].Severity, wantCall)
			}
		})
	}
}
