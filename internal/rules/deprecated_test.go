package rules

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// deprecationFindings keeps the deprecated-* findings of a session.
func deprecationFindings(fs []finding.Finding) []string {
	var out []string
	for _, l := range findingLines(fs) {
		if strings.HasPrefix(l, "deprecated-") {
			out = append(out, l)
		}
	}
	return out
}

func TestDeprecations(t *testing.T) {
	t.Parallel()
	legacyInit := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}`
	sampling := `{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"allServers"}}}}`
	logMsg := notif("notifications/message", `{"level":"info","data":"x"}`)
	tests := map[string]struct {
		steps []step
		want  []string
	}{
		"modern sampling, twice: once, with its includeContext": {
			steps: []step{c2s(tool("1", "t", "{}", "")), s2c(res("1", sampling)),
				c2s(tool("2", "t", "{}", "")), s2c(res("2", sampling))},
			want: []string{"deprecated-sampling@2", "deprecated-include-context@2"},
		},
		"modern session, a notifications/message outside any call": {
			steps: []step{c2s(tool("1", "t", "{}", "")), s2c(res("1", `{"content":[]}`)), s2c(logMsg)},
			want:  []string{"deprecated-logging@3"},
		},
		"a logLevel in a modern request's _meta": {
			steps: []step{c2s(strings.Replace(tool("1", "t", "{}", ""), `"_meta":{`, `"_meta":{"io.modelcontextprotocol/logLevel":"debug",`, 1))},
			want:  []string{"deprecated-logging@1"},
		},
		"a notifications/message before any request counts nowhere": {
			steps: []step{s2c(logMsg)},
		},
		"2025 session: sampling, roots, logging and a titled enum are current": {
			steps: []step{c2s(legacyInit), s2c(res("0", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)),
				c2s(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}`),
				s2c(logMsg),
				s2c(`{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"includeContext":"thisServer"}}`),
				c2s(res("7", `{"role":"assistant","content":{"type":"text","text":"k"},"model":"m"}`)),
				s2c(`{"jsonrpc":"2.0","id":8,"method":"roots/list"}`),
				s2c(`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"p":{"type":"string","enum":["a"],"enumNames":["A"]}}}}}`),
				// A 2026-07-28 shape answering a legacy call is judged by the call's era.
				s2c(res("1", sampling)),
			},
		},
		"a dual-era session: the modern call's sampling counts, the legacy call's notification does not": {
			steps: []step{c2s(legacyInit), s2c(res("0", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)),
				s2c(logMsg), c2s(tool("1", "t", "{}", "")), s2c(res("1", sampling)), s2c(logMsg)},
			want: []string{"deprecated-sampling@5", "deprecated-include-context@5"},
		},
		"roots and a titled enum in one round; a oneOf titled field is current": {
			steps: []step{c2s(tool("1", "t", "{}", "")), s2c(res("1", `{"resultType":"input_required","inputRequests":{`+
				`"r":{"method":"roots/list"},`+
				`"e":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{`+
				`"new":{"type":"string","oneOf":[{"const":"a","title":"A"}]},"old":{"type":"string","enum":["a"],"enumNames":["A"]}}}}}}}`))},
			want: []string{"deprecated-roots@2", "deprecated-titled-enum@2"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := deprecationFindings(load(t, tc.steps).Findings.Slice())
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("deprecation findings (-want +got):\n%s", diff)
			}
		})
	}
}

// deprecationSessions raise each deprecation rule of a frame (coverage_test.go's
// table); deprecated-dynamic-registration is raised by its OAuth capture.
func deprecationSessions() map[string][]step {
	ask := func(entry string) []step {
		return []step{c2s(tool("1", "t", "{}", "")), s2c(res("1", `{"resultType":"input_required","inputRequests":{"k":`+entry+`}}`))}
	}
	return map[string][]step{
		finding.DeprecatedSampling:       ask(`{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`),
		finding.DeprecatedIncludeContext: ask(`{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"includeContext":"thisServer"}}`),
		finding.DeprecatedRoots:          ask(`{"method":"roots/list"}`),
		finding.DeprecatedTitledEnum: ask(`{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object",` +
			`"properties":{"p":{"type":"string","enum":["a"],"enumNames":["A"]}}}}}`),
		finding.DeprecatedLogging: {c2s(tool("1", "t", "{}", "")), s2c(notif("notifications/message", `{"level":"info","data":"x"}`))},
		finding.DeprecatedHTTPSSE: sseSession("/message?sessionId=1", modernHeaders("t"), tool("1", "t", "{}", "")),
	}
}

// The HTTP+SSE transport of 2024-11-05, as the HTTP tap records it: the
// GET's event stream (exchange "g") opens with an endpoint event, each
// message is POSTed to the endpoint and answered 202 "Accepted", and the
// answers arrive on the stream.
func sseOpen(endpoint string) []step {
	get := c2s("")
	get.http = &capture.HTTP{Exchange: "g", Method: "GET", Path: "/sse", Headers: map[string]string{"Accept": "text/event-stream"}}
	ev := s2c(endpoint)
	ev.http = &capture.HTTP{Exchange: "g", Method: "GET", Path: "/sse", Status: 200,
		Headers: map[string]string{"Content-Type": "text/event-stream"}, Event: "endpoint"}
	return []step{get, ev}
}

// ssePost POSTs raw to /message on exchange ex and gets 202 "Accepted".
func ssePost(ex, raw string, headers map[string]string) []step {
	p := c2s(raw)
	p.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/message", Headers: headers}
	a := s2c("Accepted")
	a.http = &capture.HTTP{Exchange: ex, Method: "POST", Path: "/message", Status: 202}
	return []step{p, a}
}

// sseEvent is a message event on the GET's stream.
func sseEvent(raw string) step {
	st := s2c(raw)
	st.http = &capture.HTTP{Exchange: "g", Method: "GET", Path: "/sse", Status: 200, Headers: map[string]string{"Content-Type": "text/event-stream"}}
	return st
}

// sseSession is a session over HTTP+SSE: the endpoint event, then each
// request POSTed with headers and answered on the stream with an empty
// result.
func sseSession(endpoint string, headers map[string]string, requests ...string) []step {
	steps := append([]step{{rec: &capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "sse", Transport: "http", Target: "http://127.0.0.1:1/sse"}}}, sseOpen(endpoint)...)
	for i, raw := range requests {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal([]byte(raw), &m)
		steps = append(steps, ssePost(fmt.Sprintf("p%d", i), raw, headers)...)
		if m.ID != nil {
			steps = append(steps, sseEvent(res(string(m.ID), `{"content":[]}`)))
		}
	}
	return steps
}

// TestDeprecatedHTTPSSE: a 2026-07-28 request POSTed to the endpoint an
// endpoint event named is deprecated-http-sse, once; a 2025 session over
// the same transport raises nothing at all (its endpoint event and its
// 202 "Accepted" answers carry no message and are no invalid frames); and
// a modern POST elsewhere is not on the transport.
func TestDeprecatedHTTPSSE(t *testing.T) {
	t.Parallel()
	legacyInit := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	legacyCall := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}`
	initialized := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	tests := map[string]struct {
		steps []step
		want  []string
	}{
		"2026-07-28 requests over HTTP+SSE: once, at the first": {
			steps: sseSession("/message?sessionId=1", modernHeaders("t"), tool("1", "t", "{}", ""), tool("2", "t", "{}", "")),
			want:  []string{"deprecated-http-sse@3"},
		},
		"an absolute endpoint URI names the same path": {
			steps: sseSession("http://127.0.0.1:1/message?sessionId=1", modernHeaders("t"), tool("1", "t", "{}", "")),
			want:  []string{"deprecated-http-sse@3"},
		},
		"a 2025 session over HTTP+SSE raises nothing": {
			steps: sseSession("/message?sessionId=1", map[string]string{"MCP-Protocol-Version": "2025-11-25"}, legacyInit, initialized, legacyCall),
		},
		"a dual-era client's refused probe, then initialize, without headers: a 2025 session": {
			steps: append(append(append(sseSession("/message?sessionId=1", nil),
				ssePost("p", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+meta+`}}`, nil)...),
				sseEvent(`{"jsonrpc":"2.0","id":"d","error":{"code":-32601,"message":"Method not found"}}`)),
				append(ssePost("i", legacyInit, nil), sseEvent(res("0", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)))...),
		},
		"a probe a modern server answers: at the probe": {
			steps: append(append(sseSession("/message?sessionId=1", nil),
				ssePost("p", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+meta+`}}`, nil)...),
				sseEvent(res(`"d"`, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`))),
			want: []string{"deprecated-http-sse@3"},
		},
		"a probe, then a modern call: at the probe, once": {
			steps: append(append(append(sseSession("/message?sessionId=1", nil),
				ssePost("p", `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+meta+`}}`, nil)...),
				sseEvent(res(`"d"`, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`))),
				append(ssePost("c", tool("1", "t", "{}", ""), nil), sseEvent(res("1", `{"content":[]}`)))...),
			want: []string{"deprecated-http-sse@3"},
		},
		"an endpoint elsewhere: a modern POST to /mcp is Streamable HTTP": {
			steps: append(sseSession("/other?sessionId=1", nil),
				post("m", tool("1", "t", "{}", ""), modernHeaders("t")),
				answer("m", 200, res("1", `{"resultType":"complete","content":[]}`), jsonCT)),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := findingLines(load(t, tc.steps).Findings.Slice())
			if len(got) == 0 {
				got = nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
