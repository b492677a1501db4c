package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// toolsList is a tools/list result listing tools (raw Tool objects).
func toolsList(id string, tools ...string) string {
	return res(fmt.Sprintf("%q", id), `{"resultType":"complete","tools":[`+strings.Join(tools, ",")+`]}`)
}

// toolDef is a Tool whose inputSchema has the given properties.
func toolDef(name, props string) string {
	return fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object","properties":%s}}`, name, props)
}

// deploy annotates env (string), count (integer), dry (boolean) and the
// nested target.region (string).
func deployTool() string {
	return toolDef("deploy", `{"service":{"type":"string"},`+
		`"env":{"type":"string","x-mcp-header":"Env"},`+
		`"count":{"type":"integer","x-mcp-header":"count"},`+
		`"dry":{"type":["boolean","null"],"x-mcp-header":"Dry-Run"},`+
		`"target":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}`)
}

// listed runs a tools/list exchange (seq 1 and 2) before the steps.
func listed(tools string, steps ...step) []step {
	list := post("l", `{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{`+meta+`}}`,
		map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
	return append([]step{list, answer("l", 200, tools, jsonCT)}, steps...)
}

// paramCall POSTs a modern tools/call of name with args and the Mcp-Param-*
// headers kv (name, value pairs) on top of the required ones.
func paramCall(name, args string, kv ...string) step {
	h := modernHeaders(name)
	for i := 0; i+1 < len(kv); i += 2 {
		h[kv[i]] = kv[i+1]
	}
	return post("c", tool("1", name, args, ""), h)
}

func TestHTTPParamHeaders(t *testing.T) {
	deploy := deployTool()
	sentinel := "=?base64?" + "w6l0w6k=" + "?=" // "été"
	tests := []struct {
		name    string
		steps   []step
		finding []string
	}{
		{"present and matching", listed(toolsList("l", deploy),
			paramCall("deploy", `{"service":"b","env":"staging","count":3,"dry":false,"target":{"region":"eu-1"}}`,
				"Mcp-Param-Env", "staging", "Mcp-Param-Count", "3", "Mcp-Param-Dry-Run", "false", "Mcp-Param-Region", "eu-1")), nil},
		{"only some arguments given", listed(toolsList("l", deploy),
			paramCall("deploy", `{"service":"b","env":"prod"}`, "Mcp-Param-Env", "prod")), nil},
		{"base64 sentinel value", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"été"}`, "Mcp-Param-Env", sentinel)), nil},
		{"sentinel look-alike encoded", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"=?base64?abc?="}`, "Mcp-Param-Env", "=?base64?PT9iYXNlNjQ/YWJjPz0=?=")), nil},
		{"integer compared numerically", listed(toolsList("l", deploy),
			paramCall("deploy", `{"count":7}`, "Mcp-Param-Count", "007")), nil},
		{"no annotations", listed(toolsList("l", toolDef("deploy", `{"env":{"type":"string"}}`)),
			paramCall("deploy", `{"env":"x"}`)), nil},
		{"tool never listed", []step{paramCall("other", `{"env":"x"}`)}, nil},
		{"mismatch", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"staging"}`, "Mcp-Param-Env", "prod")), []string{"http-param-header@3"}},
		{"integer mismatch", listed(toolsList("l", deploy),
			paramCall("deploy", `{"count":3}`, "Mcp-Param-Count", "0x3")), []string{"http-param-header@3"}},
		{"boolean mismatch", listed(toolsList("l", deploy),
			paramCall("deploy", `{"dry":true}`, "Mcp-Param-Dry-Run", "True")), []string{"http-param-header@3"}},
		{"nested mismatch", listed(toolsList("l", deploy),
			paramCall("deploy", `{"target":{"region":"eu-1"}}`, "Mcp-Param-Region", "us-1")), []string{"http-param-header@3"}},
		{"missing", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"staging","count":1}`, "Mcp-Param-Env", "staging")), []string{"http-param-header@3"}},
		{"present when null", listed(toolsList("l", deploy),
			paramCall("deploy", `{"dry":null}`, "Mcp-Param-Dry-Run", "false")), []string{"http-param-header@3"}},
		{"present when absent", listed(toolsList("l", deploy),
			paramCall("deploy", `{}`, "Mcp-Param-Env", "staging")), []string{"http-param-header@3"}},
		{"unsafe value unencoded", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"été"}`, "Mcp-Param-Env", "été")), []string{"http-param-header@3"}},
		{"look-alike unencoded", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"=?base64?abc?="}`, "Mcp-Param-Env", "=?base64?abc?=")), []string{"http-param-header@3"}},
		{"uppercase markers", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"été"}`, "Mcp-Param-Env", "=?BASE64?w6l0w6k=?=")), []string{"http-param-header@3"}},
		{"integer out of range", listed(toolsList("l", deploy),
			paramCall("deploy", `{"count":9007199254740993}`, "Mcp-Param-Count", "9007199254740993")), []string{"http-param-header@3"}},
		{"one finding per violation", listed(toolsList("l", deploy),
			paramCall("deploy", `{"env":"a","count":1}`, "Mcp-Param-Env", "b", "Mcp-Param-Dry-Run", "true")),
			[]string{"http-param-header@3", "http-param-header@3", "http-param-header@3"}},
		{"later tools/list replaces", append(listed(toolsList("l", deploy)),
			post("l2", `{"jsonrpc":"2.0","id":"l2","method":"tools/list","params":{`+meta+`}}`,
				map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}),
			answer("l2", 200, toolsList("l2", toolDef("deploy", `{"env":{"type":"string"}}`)), jsonCT),
			paramCall("deploy", `{"env":"x"}`)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.finding, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
				for _, f := range snap.Findings.Slice() {
					t.Logf("%s: %s", f.Rule, f.Message)
				}
			}
		})
	}
}

func TestToolHeaderAnnotations(t *testing.T) {
	tests := []struct {
		name    string
		props   string
		finding []string
	}{
		{"valid", `{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"integer","x-mcp-header":"B_2"}}`, nil},
		{"empty", `{"a":{"type":"string","x-mcp-header":""}}`, []string{"tool-header-annotation@2"}},
		{"not a string", `{"a":{"type":"string","x-mcp-header":7}}`, []string{"tool-header-annotation@2"}},
		{"not a token", `{"a":{"type":"string","x-mcp-header":"My Header"}}`, []string{"tool-header-annotation@2"}},
		{"control character", `{"a":{"type":"string","x-mcp-header":"A\r\nB"}}`, []string{"tool-header-annotation@2"}},
		{"duplicate case-insensitive", `{"a":{"type":"string","x-mcp-header":"Env"},"b":{"type":"string","x-mcp-header":"ENV"}}`,
			[]string{"tool-header-annotation@2"}},
		{"number type", `{"a":{"type":"number","x-mcp-header":"A"}}`, []string{"tool-header-annotation@2"}},
		{"object type", `{"a":{"type":"object","x-mcp-header":"A"}}`, []string{"tool-header-annotation@2"}},
		{"no type", `{"a":{"x-mcp-header":"A"}}`, []string{"tool-header-annotation@2"}},
		{"two types", `{"a":{"type":["string","integer"],"x-mcp-header":"A"}}`, []string{"tool-header-annotation@2"}},
		{"under items", `{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}`, []string{"tool-header-annotation@2"}},
		{"under anyOf", `{"a":{"anyOf":[{"type":"string","x-mcp-header":"A"}]}}`, []string{"tool-header-annotation@2"}},
		{"nested through properties", `{"a":{"type":"object","properties":{"b":{"type":"boolean","x-mcp-header":"B"}}}}`, nil},
		{"in a default value", `{"a":{"type":"object","default":{"x-mcp-header":"not a schema"}}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := load(t, listed(toolsList("l", toolDef("t", tt.props))))
			if diff := cmp.Diff(tt.finding, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			for _, f := range snap.Findings.Slice() {
				t.Logf("%s: %s", f.Rule, f.Message)
			}
		})
	}
}

// TestToolHeaderAnnotationCall: an HTTP client calling a tool whose
// annotations are invalid breaks rule 49 too, and its headers are not
// checked against them; on stdio the annotation is still flagged at the
// tools/list result but the call is not.
func TestToolHeaderAnnotationCall(t *testing.T) {
	bad := toolDef("t", `{"a":{"type":"number","x-mcp-header":"A"}}`)
	snap := load(t, listed(toolsList("l", bad), paramCall("t", `{"a":1.5}`)))
	if diff := cmp.Diff([]string{"tool-header-annotation@2", "tool-header-annotation@3"}, findingLines(snap.Findings.Slice())); diff != "" {
		t.Errorf("HTTP findings (-want +got):\n%s", diff)
	}
	snap = load(t, []step{
		c2s(`{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{` + meta + `}}`),
		s2c(toolsList("l", bad)),
		c2s(tool("1", "t", `{"a":1.5}`, "")),
	})
	if diff := cmp.Diff([]string{"tool-header-annotation@2"}, findingLines(snap.Findings.Slice())); diff != "" {
		t.Errorf("stdio findings (-want +got):\n%s", diff)
	}
}
