package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
)

// TestFailureNotices: one line per kind of failure, the first time it
// happens; the protocol's 400 and a GET's 405 say nothing.
func TestFailureNotices(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	n := &failureNotices{w: &out}
	for _, f := range []httpproxy.Failure{
		{Status: 400, Method: "POST", Path: "/mcp", RPCMethod: "server/discover"},
		{Status: 405, Method: "GET", Path: "/mcp"},
		{Status: 401, Method: "POST", Path: "/mcp", RPCMethod: "tools/call"},
		{Status: 401, Method: "POST", Path: "/mcp", RPCMethod: "tools/list"},
		{Status: 500, Method: "POST", Path: "/mcp"},
		{Status: 502, Method: "POST", Path: "/mcp", RPCMethod: "tools/call", TargetDown: true, Err: "dial tcp 127.0.0.1:9: connect: connection refused"},
		{Status: 502, Method: "POST", Path: "/mcp", RPCMethod: "ping", TargetDown: true, Err: "again"},
		{Status: 502, Method: "POST", Path: "/mcp", RPCMethod: "ping\x1b[2J"},
		{Status: 500, Method: "POST", Path: "/mcp", RPCMethod: "ping"},
		{Status: 403, Method: "POST", Path: "/mcp", Refused: `Origin "https://evil.example" is not an allowed origin`},
		{Status: 403, Method: "POST", Path: "/mcp", Refused: `Origin "https://other.example" is not an allowed origin`},
	} {
		n.report(f)
	}
	want := []string{
		"mcptrail: target answered 401 Unauthorized to tools/call (first time; see the capture)",
		"mcptrail: target answered 500 Internal Server Error to POST /mcp (first time; see the capture)",
		"mcptrail: target unreachable: answered 502 Bad Gateway to tools/call: dial tcp 127.0.0.1:9: connect: connection refused (first time; see the capture)",
		`mcptrail: target answered 502 Bad Gateway to ping\x1b[2J (first time; see the capture)`,
		`mcptrail: refused POST /mcp with 403 Forbidden, before the target: Origin "https://evil.example" is not an allowed origin (first time; see the capture)`,
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}
