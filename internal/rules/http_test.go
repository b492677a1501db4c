package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
