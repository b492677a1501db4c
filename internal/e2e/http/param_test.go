package http_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// modernMeta is the _meta of a modern request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// paramTarget lists a tool "deploy" whose env argument is annotated
// x-mcp-header "Env" and a tool "broken" annotated on a number, and
// answers any other request with a complete result.
func paramTarget() http.Handler {
	const tools = `{"tools":[` +
		`{"name":"deploy","inputSchema":{"type":"object","properties":{"service":{"type":"string"},"env":{"type":"string","x-mcp-header":"Env"}}}},` +
		`{"name":"broken","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}]}`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID jsontext.Value `json:"id"`
		}
		_ = jsonUnmarshal(body, &msg)
		result := `{"resultType":"complete","content":[]}`
		if bytes.Contains(body, []byte(`"tools/list"`)) {
			result = `{"resultType":"complete",` + tools[1:]
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":`+result+`}`)
	})
}

// TestParamHeaders POSTs tools/list, then tools/call with a matching
// Mcp-Param-Env, with a base64-sentinel one, with none, with one for an
// absent argument and with a differing one, through the real binary: the
// capture keeps the headers and the export flags exactly the three bad
// calls (rule 57) and the invalid annotation (rule 49).
func TestParamHeaders(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(paramTarget())
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp")

	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`
	post(t, tp.url("/mcp"), list, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
	calls := []struct {
		id, args string
		header   map[string]string
	}{
		{"2", `{"service":"b","env":"staging"}`, map[string]string{"Mcp-Param-Env": "staging"}},
		{"3", `{"env":"été"}`, map[string]string{"Mcp-Param-Env": "=?base64?w6l0w6k=?="}},
		{"4", `{"env":"staging"}`, nil},
		{"5", `{"service":"b"}`, map[string]string{"mcp-param-env": "staging"}},
		{"6", `{"env":"staging"}`, map[string]string{"Mcp-Param-Env": "prod"}},
	}
	for _, c := range calls {
		body := `{"jsonrpc":"2.0","id":` + c.id + `,"method":"tools/call","params":{"name":"deploy","arguments":` + c.args + `,` + modernMeta + `}}`
		h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "deploy"}
		for k, v := range c.header {
			h[k] = v
		}
		if resp := post(t, tp.url("/mcp"), body, h); resp.StatusCode != 200 {
			t.Fatalf("call %s: HTTP %d", c.id, resp.StatusCode)
		}
	}
	tp.stop(t)

	var kept []string
	for _, r := range tp.records(t) {
		if r.HTTP != nil && r.Dir == capture.C2S {
			if v, ok := r.HTTP.Headers["Mcp-Param-Env"]; ok {
				kept = append(kept, v)
			}
		}
	}
	if d := diff([]string{"staging", "=?base64?w6l0w6k=?=", "staging", "prod"}, kept); d != "" {
		t.Errorf("captured Mcp-Param-Env headers (-want +got):\n%s", d)
	}
	want := []string{"tool-header-annotation", "http-param-header", "http-param-header", "http-param-header"}
	if d := diff(want, exportFindings(t, runExport(t, tp.capture))); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
}
