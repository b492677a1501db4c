package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// post and answer put a frame on an HTTP exchange.
func post(ex, raw string, headers map[string]string) step {
	st := c2s(1, raw)
	st.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp", Headers: headers}
	return st
}

func answer(ex string, status int, raw string, headers map[string]string) step {
	st := s2c(1, raw)
	st.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp", Status: status, Headers: headers}
	return st
}

// modernHeaders are the headers a modern tools/call of name must carry.
func modernHeaders(name string) map[string]string {
	return map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name}
}

var jsonCT = map[string]string{"Content-Type": "application/json"}

func TestHTTPStatusFrames(t *testing.T) {
	snap := load(t, []step{
		post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
		answer("x1", 401, "", map[string]string{"WWW-Authenticate": `Bearer resource_metadata="m"`}),
		post("x2", tool("2", "a", "{}", ""), modernHeaders("a")),
		answer("x2", 502, "", nil),
		post("x3", tool("3", "a", "{}", ""), modernHeaders("a")),
		answer("x3", 400, `{"jsonrpc":"2.0","error":{"code":-32020,"message":"header mismatch"}}`, jsonCT),
		post("x4", tool("4", "a", "{}", ""), modernHeaders("a")),
		answer("x4", 403, "Forbidden origin", map[string]string{"Content-Type": "text/plain"}),
		post("x5", notif("notifications/progress", "{}"), map[string]string{"MCP-Protocol-Version": "2026-07-28"}),
		answer("x5", 202, "", nil),
		endRec(),
	})
	want := []string{
		"c2s 1 tools/call[a] http-error modern",
		"c2s 2 tools/call[a] http-error modern",
		"c2s 3 tools/call[a] error modern",
		"c2s 4 tools/call[a] http-error modern",
	}
	if diff := cmp.Diff(want, callLines(snap.Calls.Slice())); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if e := snap.Calls.Slice()[0].Error; e == nil || e.Code != 401 || e.Message != `HTTP 401 Unauthorized; WWW-Authenticate: Bearer resource_metadata="m"` {
		t.Errorf("401 call error %+v", e)
	}
	if diff := cmp.Diff([]string(nil), findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if snap.Counts.Invalid != 0 {
		t.Errorf("%d invalid frames; status frames are not invalid", snap.Counts.Invalid)
	}
}

// TestHTTPStatelessIDCollision: two stateless clients POST requests with
// the same ids, interleaved, and their answers come back in the other
// order (one as JSON, one on an SSE stream): each answer pairs with the
// request of its own exchange, and the shared id is no reuse.
func TestHTTPStatelessIDCollision(t *testing.T) {
	sse := map[string]string{"Content-Type": "text/event-stream"}
	snap := load(t, []step{
		post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
		post("x2", tool("1", "b", "{}", ""), modernHeaders("b")),
		post("x3", tool("2", "a", "{}", ""), modernHeaders("a")),
		post("x4", tool("2", "b", "{}", ""), modernHeaders("b")),
		answer("x2", 200, res("1", `{"resultType":"complete","content":[{"type":"text","text":"b1"}]}`), sse),
		answer("x4", 200, res("2", `{"resultType":"complete","isError":true}`), jsonCT),
		answer("x1", 200, res("1", `{"resultType":"complete","isError":true}`), jsonCT),
		answer("x3", 200, res("2", `{"resultType":"complete"}`), sse),
		endRec(),
	})
	type pair struct {
		Target           string
		Request, Respond uint64
		Status           string
	}
	var got []pair
	for _, c := range snap.Calls.Slice() {
		got = append(got, pair{c.Target, c.RequestSeq, c.ResponseSeq, c.Status})
	}
	want := []pair{
		{"a", 1, 7, StatusToolError},
		{"b", 2, 5, StatusOK},
		{"a", 3, 8, StatusOK},
		{"b", 4, 6, StatusToolError},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string(nil), findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
