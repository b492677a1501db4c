package replay

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestSchemaBindings: annotations on properties, nested objects included,
// are bindings; one under items or that is not a token is not.
func TestSchemaBindings(t *testing.T) {
	t.Parallel()
	schema := jsontext.Value(`{"type":"object","properties":{
		"env":{"type":"string","x-mcp-header":"Env"},
		"target":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}},
		"tags":{"type":"array","items":{"type":"string","x-mcp-header":"Tag"}},
		"bad":{"type":"string","x-mcp-header":"a b"},
		"plain":{"type":"integer"}}}`)
	want := []paramBinding{{path: []string{"env"}, header: "Env"}, {path: []string{"target", "region"}, header: "Region"}}
	if diff := cmp.Diff(want, schemaBindings(schema, nil, nil), cmp.AllowUnexported(paramBinding{})); diff != "" {
		t.Errorf("bindings (-want +got):\n%s", diff)
	}
}

// TestHeaderText: a string as is or base64-sentinel encoded, an integer
// in decimal, a boolean as is; null, objects, arrays and fractions give
// no header.
func TestHeaderText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"staging"`, "staging", true},
		{`"été"`, "=?base64?w6l0w6k=?=", true},
		{`" x"`, "=?base64?IHg=?=", true},
		{`42`, "42", true},
		{`-7.0`, "-7", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`1.5`, "", false},
		{`null`, "", false},
		{`{"a":1}`, "", false},
		{`[1]`, "", false},
	} {
		got, ok := headerText(jsontext.Value(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("headerText(%s) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestParamHeaders: a tools/call POST carries the Mcp-Param-* headers the
// recording kept, until the server lists the tool; then, and without
// recorded ones (a stdio capture), those the tool's annotations ask for,
// from the capture's catalog until the server's tools/list says
// otherwise; a legacy request none.
func TestParamHeaders(t *testing.T) {
	t.Parallel()
	const modern = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	call := func(args string) string {
		return `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":` + args + `,` + modern + `}}`
	}
	catalog := map[string][]paramBinding{"deploy": {{path: []string{"env"}, header: "Env"}}}
	listed := `{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}]}`
	for _, tt := range []struct {
		name     string
		msg      string
		recorded map[string]string
		list     string // a tools/list result the server gave first
		want     map[string]string
	}{
		{"recorded", call(`{"env":"staging"}`), map[string]string{"Mcp-Param-Env": "recorded"}, "", map[string]string{"Mcp-Param-Env": "recorded"}},
		{"recorded none", call(`{"env":"staging"}`), map[string]string{}, "", map[string]string{}},
		{"from the catalog", call(`{"env":"staging"}`), nil, "", map[string]string{"Mcp-Param-Env": "staging"}},
		{"null argument", call(`{"env":null}`), nil, "", map[string]string{}},
		{"from the server's list", call(`{"env":"staging","region":"eu"}`), nil, listed, map[string]string{"Mcp-Param-Region": "eu"}},
		{"the server's list over the recording", call(`{"env":"staging","region":"eu"}`), map[string]string{"Mcp-Param-Env": "staging"}, listed, map[string]string{"Mcp-Param-Region": "eu"}},
		{"listed now without annotations", call(`{"env":"staging"}`), map[string]string{"Mcp-Param-Env": "staging"}, `{"tools":[{"name":"deploy","inputSchema":{"type":"object"}}]}`, map[string]string{}},
		{"another tool listed", call(`{"env":"staging"}`), map[string]string{"Mcp-Param-Env": "recorded"}, `{"tools":[{"name":"other"}]}`, map[string]string{"Mcp-Param-Env": "recorded"}},
		{"legacy", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{"env":"staging"}}}`, nil, "", map[string]string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newHTTPConn(context.Background(), "http://127.0.0.1:1/mcp", http.DefaultClient, nil)
			defer c.cancel()
			c.tools = map[string][]paramBinding{}
			for k, v := range catalog {
				c.tools[k] = v
			}
			if tt.list != "" {
				c.learnTools([]byte(tt.list))
			}
			f := wire.Decode([]byte(tt.msg))
			h := http.Header{}
			c.headers(h, &f)
			c.paramHeaders(h, &f, tt.recorded)
			got := map[string]string{}
			for k := range h {
				if len(k) > len("Mcp-Param-") && k[:len("Mcp-Param-")] == "Mcp-Param-" {
					got[k] = h.Get(k)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Mcp-Param-* headers (-want +got):\n%s", diff)
			}
		})
	}
}
