package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHTTPErrorJSONBody: a non-2xx answer whose body is JSON but no
// JSON-RPC message (an OAuth 401 {"error":"unauthorized"}, a 404 JSON
// document) is a status frame: the call ends http-error with the status
// and WWW-Authenticate, and no invalid-frame finding. A JSON-RPC error
// missing only its "jsonrpc" member stays a (malformed) JSON-RPC error.
func TestHTTPErrorJSONBody(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
		answer("x1", 401, `{"error":"unauthorized","error_description":"no token"}`,
			map[string]string{"Content-Type": "application/json", "WWW-Authenticate": `Bearer resource_metadata="http://h/.well-known/oauth-protected-resource/mcp"`}),
		post("x2", tool("2", "a", "{}", ""), modernHeaders("a")),
		answer("x2", 404, `{"message":"no such endpoint"}`, jsonCT),
		post("x3", tool("3", "a", "{}", ""), modernHeaders("a")),
		answer("x3", 400, `{"id":3,"error":{"code":-32600,"message":"bad"}}`, jsonCT),
		endRec(),
	})
	want := []string{
		"c2s 1 tools/call[a] http-error modern",
		"c2s 2 tools/call[a] http-error modern",
		"c2s 3 tools/call[a] error modern",
	}
	calls := snap.Calls.Slice()
	if diff := cmp.Diff(want, callLines(calls)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if e := calls[0].Error; e == nil || e.Code != 401 ||
		e.Message != `HTTP 401 Unauthorized; WWW-Authenticate: Bearer resource_metadata="http://h/.well-known/oauth-protected-resource/mcp"` {
		t.Errorf("call 1 error %+v", e)
	}
	for _, f := range snap.Findings.Slice() {
		if f.Rule == "invalid-frame" && f.Seq != 6 {
			t.Errorf("finding %s at seq %d: a JSON document answered with an error status is not an invalid frame", f.Rule, f.Seq)
		}
	}
}
