package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// get is a GET on an exchange (the standalone stream, or a stream the
// client resumes with Last-Event-ID).
func get(ex string, headers map[string]string) step {
	st := c2s(1, "")
	st.http = &capture.HTTP{Exchange: ex, Method: "GET", Path: "/mcp", Headers: headers}
	return st
}

func getAnswer(ex, raw string) step {
	st := s2c(1, raw)
	st.http = &capture.HTTP{Exchange: ex, Method: "GET", Path: "/mcp", Status: 200,
		Headers: map[string]string{"Content-Type": "text/event-stream"}}
	return st
}

// TestHTTPStreamEndWithoutAnswer: a POST's SSE stream that ends HTTP 200
// without the JSON-RPC response is http-request-without-response only when
// the call is still owed its answer at the end: not when the client
// cancelled it (before or after the stream's end), not when the answer
// came on a resumed stream, and still when nothing ever answered it.
func TestHTTPStreamEndWithoutAnswer(t *testing.T) {
	sse := map[string]string{"Content-Type": "text/event-stream"}
	cancel := notif("notifications/cancelled", `{"requestId":1,"reason":"aborted"}`)
	for _, tc := range []struct {
		name     string
		steps    []step
		calls    []string
		findings []string
	}{
		{"cancelled, then the stream ends", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			post("x2", cancel, map[string]string{"MCP-Protocol-Version": "2026-07-28"}),
			answer("x2", 202, "", nil),
			answer("x1", 200, "", sse),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] cancelled modern cancel@2"}, nil},
		{"the stream ends, then the cancel", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, "", sse),
			post("x2", cancel, map[string]string{"MCP-Protocol-Version": "2026-07-28"}),
			answer("x2", 202, "", nil),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] cancelled modern cancel@3"}, nil},
		{"answered on a resumed stream", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, "", sse),
			get("x2", map[string]string{"Last-Event-ID": "0"}),
			getAnswer("x2", res("1", `{"resultType":"complete","content":[]}`)),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] ok modern"}, nil},
		{"never answered", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, "", sse),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] pending modern"},
			[]string{"unanswered-request@1", "http-request-without-response@2"}},
		{"answered 202", []step{
			post("x1", tool("1", "a", "{}", ""), modernHeaders("a")),
			answer("x1", 202, "", nil),
		}, []string{"c2s 1 tools/call[a] pending modern"}, []string{"http-request-without-response@2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := load(t, tc.steps)
			if diff := cmp.Diff(tc.calls, callLines(snap.Calls.Slice())); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.findings, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHTTPStreamClosedByClient: in 2026-07-28 a client cancels a request
// on Streamable HTTP by closing its response stream (no
// notifications/cancelled), which the tap notes as a stream-aborted note
// stopped by the client; the call is then cancelled and owed nothing. A
// 2025 request is not cancelled by a disconnect, nor a modern one by a
// stream the target cut.
func TestHTTPStreamClosedByClient(t *testing.T) {
	sse := map[string]string{"Content-Type": "text/event-stream"}
	closed := func(ex, by string) step {
		return noteRec(capture.Record{Note: capture.NoteStreamAborted, StoppedBy: by,
			Text: "event stream cut short: context canceled (the client closed it)",
			HTTP: &capture.HTTP{Exchange: ex, Method: "POST", Path: "/mcp"}})
	}
	progress := notif("notifications/progress", `{"progressToken":"t","progress":1}`)
	for _, tc := range []struct {
		name     string
		steps    []step
		calls    []string
		findings []string
	}{
		{"after a progress event", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, progress, sse),
			closed("x1", capture.StopClient),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] cancelled modern cancel@3"}, nil},
		{"before any event", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			closed("x1", capture.StopClient),
			answer("x1", 200, "", sse),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] cancelled modern cancel@2"}, nil},
		{"closed, then a notifications/cancelled too", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, progress, sse),
			closed("x1", capture.StopClient),
			post("x2", notif("notifications/cancelled", `{"requestId":1}`), map[string]string{"MCP-Protocol-Version": "2026-07-28"}),
			answer("x2", 202, "", nil),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] cancelled modern cancel@3"}, nil},
		{"cut by the target", []step{
			post("x1", tool("1", "slow", "{}", ""), modernHeaders("slow")),
			answer("x1", 200, progress, sse),
			closed("x1", ""),
			endRec(),
		}, []string{"c2s 1 tools/call[slow] pending modern"}, []string{"unanswered-request@1"}},
		{"a 2025 request", []step{
			post("x1", req("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), nil),
			answer("x1", 200, res("1", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`), nil),
			post("x2", req("2", "tools/call", `{"name":"slow","arguments":{}}`), nil),
			answer("x2", 200, progress, sse),
			closed("x2", capture.StopClient),
			endRec(),
		}, []string{"c2s 1 initialize ok legacy", "c2s 2 tools/call[slow] pending legacy"}, []string{"unanswered-request@3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := load(t, tc.steps)
			if diff := cmp.Diff(tc.calls, callLines(snap.Calls.Slice())); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.findings, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
