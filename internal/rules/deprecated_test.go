package rules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	}
}
