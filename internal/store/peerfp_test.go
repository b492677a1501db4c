package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Traffic of real SDKs (internal/e2e/peers) that is legal and must raise
// no finding, each next to the traffic that must still raise one.

// listen is a modern subscriptions/listen request for the tool list.
func listen(id string) string {
	return req(id, "subscriptions/listen", `{"notifications":{"toolsListChanged":true},`+meta+`}`)
}

// listenAck is the server's acknowledgement on the listen stream.
func listenAck(id string) string {
	return notif("notifications/subscriptions/acknowledged",
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":`+id+`},"notifications":{"toolsListChanged":true}}`)
}

// listenEnd is the listen stream's final success response.
func listenEnd(id string) string {
	return res(id, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+id+`}}`)
}

func cancelled(id string) string {
	return notif("notifications/cancelled", `{"requestId":`+id+`,"reason":"done"}`)
}

// peerCase is a scripted session and the findings it must raise.
type peerCase struct {
	name  string
	steps []step
	want  []string
}

func TestRealPeerTrafficFindings(t *testing.T) {
	t.Parallel()
	for _, tt := range append(rejectedPostCases(), listenCases()...) {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.want, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// modernPost are the headers of a modern POST that is no tools/call.
func modernPost() map[string]string { return map[string]string{"MCP-Protocol-Version": "2026-07-28"} }

func rejectedPostCases() []peerCase {
	return []peerCase{{
		// mcp-go's server rejects a POSTed notification with HTTP 400 and
		// a JSON-RPC error without id, as the Streamable HTTP transport
		// allows ("the body MAY comprise a JSON-RPC error response that
		// has no id"): it answers the rejected POST, not a request.
		name: "http 400 with an id-less error for a notification",
		steps: []step{
			post("x1", notif("notifications/roots/list_changed", "{}"), modernPost()),
			answer("x1", 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"missing _meta"}}`, jsonCT),
			post("x2", notif("notifications/roots/list_changed", "{}"), modernPost()),
			answer("x2", 400, `{"jsonrpc":"2.0","error":{"code":-32602,"message":"missing _meta"}}`, jsonCT),
			endRec(),
		},
	}, {
		name: "id-less error on a 200 still answers nothing",
		steps: []step{
			post("x1", notif("notifications/roots/list_changed", "{}"), modernPost()),
			answer("x1", 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"missing _meta"}}`, jsonCT),
			endRec(),
		},
		want: []string{"response-without-request@2"},
	}}
}

// listenCases are subscriptions/listen streams ended by the client.
func listenCases() []peerCase {
	sse := map[string]string{"Content-Type": "text/event-stream"}
	return []peerCase{{
		// The client ends a stdio listen with notifications/cancelled;
		// the server SHOULD then send a final success response
		// (subscriptions page), as mcp-go's does.
		name: "stdio listen answered after the client's cancel",
		steps: []step{
			c2s(1, listen("2")),
			s2c(1, listenAck("2")),
			c2s(1, cancelled("2")),
			s2c(1, listenEnd("2")),
			endRec(),
		},
	}, {
		name: "tools/call answered after cancel is still late",
		steps: []step{
			c2s(1, tool("2", "a", "{}", "")),
			c2s(1, cancelled("2")),
			s2c(1, res("2", `{"content":[]}`)),
			endRec(),
		},
		want: []string{"late-result@3"},
	}, {
		// On Streamable HTTP the client ends a listen by closing its
		// stream, with no notifications/cancelled; the listen never gets
		// an answer, and that is its normal end.
		name: "http listen closed by the client",
		steps: []step{
			post("x1", listen("3"), modernPost()),
			answer("x1", 200, listenAck("3"), sse),
			noteRec(capture.Record{Note: "stream-aborted", Text: "event stream cut short: context canceled",
				HTTP: &capture.HTTP{Exchange: "x1", Method: "POST", Path: "/mcp"}}),
			endRec(),
		},
	}, {
		name: "a tools/call left unanswered is still flagged",
		steps: []step{
			post("x1", tool("3", "a", "{}", ""), modernHeaders("a")),
			endRec(),
		},
		want: []string{"unanswered-request@1"},
	}}
}
