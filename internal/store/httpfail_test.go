package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// discover is a modern server/discover probe, as a dual-era client (the
// TypeScript SDK's) POSTs it first.
func discover(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"server/discover","params":{` + meta + `}}`
}

// discoverHeaders are the headers of that probe.
var discoverHeaders = map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}

// HTTPFailureSteps are exchanges answered with HTTP error statuses, one of
// each kind, and a dual-era probe that a 2025 server answers 400 with a
// JSON-RPC error of a null id (x7) or of another id (x8). internal/rules
// checks the same steps raise http-error-status.
func httpFailureSteps() []step {
	plain := map[string]string{"Content-Type": "text/plain"}
	return []step{
		post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
		answer("x1", 401, "", map[string]string{"WWW-Authenticate": `Bearer resource_metadata="m"`}),
		post("x2", tool("2", "a", "{}", ""), modernHeaders("a")),
		answer("x2", 403, "forbidden origin", plain),
		post("x3", tool("3", "b", "{}", ""), modernHeaders("b")),
		answer("x3", 404, "404 page not found", plain),
		post("x4", tool("4", "b", "{}", ""), modernHeaders("b")),
		answer("x4", 500, errRes("4", -32603, "internal error"), jsonCT),
		post("x5", tool("5", "b", "{}", ""), modernHeaders("b")),
		answer("x5", 502, "", nil),
		noteRec(capture.Record{Note: "upstream-error", Text: "answered 502: dial tcp: connection refused",
			HTTP: &capture.HTTP{Exchange: "x5", Method: "POST", Path: "/mcp"}}),
		post("x6", tool("6", "b", "{}", ""), modernHeaders("b")),
		answer("x6", 200, done("6"), jsonCT),
		post("x7", discover(`"probe-1"`), discoverHeaders),
		answer("x7", 400, errRes("null", -32000, "Bad Request: Server not initialized"), jsonCT),
		post("x8", discover(`"probe-2"`), discoverHeaders),
		answer("x8", 400, errRes(`"server-1"`, -32600, "Bad Request: no valid session ID provided"), jsonCT),
		endRec(),
	}
}

// TestHTTPFailuresCount: every call an HTTP error status ended counts as
// an error of its method and tool, and the probe answered 400 with an
// error of a null or another id is answered by it: neither unanswered nor
// a response without a request.
func TestHTTPFailuresCount(t *testing.T) {
	t.Parallel()
	snap := load(t, httpFailureSteps())
	want := []string{
		"c2s 1 tools/call[a] http-error modern",
		"c2s 2 tools/call[a] http-error modern",
		"c2s 3 tools/call[b] http-error modern",
		"c2s 4 tools/call[b] error modern",
		"c2s 5 tools/call[b] http-error modern",
		"c2s 6 tools/call[b] ok modern",
		`c2s "probe-1" server/discover error modern`,
		`c2s "probe-2" server/discover error modern`,
	}
	if diff := cmp.Diff(want, callLines(snap.Calls.Slice())); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	type count struct {
		Name          string
		Count, Errors int
	}
	counts := func(stats []Stat) []count {
		var out []count
		for _, s := range stats {
			out = append(out, count{s.Name, s.Count, s.Errors})
		}
		return out
	}
	if diff := cmp.Diff([]count{{"server/discover", 2, 2}, {"tools/call", 6, 5}}, counts(snap.Summary.Methods)); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]count{{"a", 2, 2}, {"b", 4, 3}}, counts(snap.Summary.Tools)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string(nil), findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if c := snap.Calls.At(7); c.Error == nil || c.Error.Code != -32600 || c.ResponseSeq != 17 {
		t.Errorf("probe-2 = %+v, want answered at seq 17 by -32600", c)
	}
	checkConsistent(t, snap)
}

// TestHTTPErrorOtherIDOnSuccess: on a 2xx answer an error of another id
// is still paired by id, so it answers no request and the POST's own
// request stays unanswered.
func TestHTTPErrorOtherIDOnSuccess(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
		answer("x1", 200, errRes("2", -32600, "bad"), jsonCT),
		endRec(),
	})
	want := []string{"unanswered-request@1", "response-without-request@2"}
	if diff := cmp.Diff(want, findingLines(snap.Findings.Slice())); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
