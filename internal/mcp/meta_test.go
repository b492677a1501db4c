package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestMetaPaths(t *testing.T) {
	t.Parallel()
	params := jsontext.Value(`{"name":"t","_meta":{"traceparent":"00-abc-01","tracestate":"k=v","progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`)
	if got := string(Meta(params)); got != `{"traceparent":"00-abc-01","tracestate":"k=v","progressToken":7,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}` {
		t.Errorf("Meta = %s", got)
	}
	if p, s := TraceContext(params); p != "00-abc-01" || s != "k=v" {
		t.Errorf("TraceContext = %q, %q", p, s)
	}
	if p, s := TraceContext(jsontext.Value(`{"_meta":{"traceparent":5,"tracestate":"bad\x"}}`)); p != "" || s != `"bad\x"` {
		t.Errorf("TraceContext of a number and a malformed string = %q, %q; want \"\" and the string as written", p, s)
	}
	if got := string(ProgressToken(params)); got != "7" {
		t.Errorf("ProgressToken = %s", got)
	}
	if got := ProgressToken(jsontext.Value(`{"name":"t"}`)); got != nil {
		t.Errorf("ProgressToken without _meta = %s, want nil", got)
	}
	if v, ok := MetaVersion(params); !ok || v != Version20260728 {
		t.Errorf("MetaVersion = %q, %v", v, ok)
	}
	if _, ok := MetaVersion(jsontext.Value(`{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`)); ok {
		t.Error("MetaVersion of a number is ok")
	}
}

func TestFieldRules(t *testing.T) {
	t.Parallel()
	i := func(n int64) *int64 { return &n }
	f := func(n float64) *float64 { return &n }
	schema := jsontext.Value(`{"type":"object","required":["name",3,"age"],"properties":{` +
		`"name":{"type":"string","minLength":1,"maxLength":2.9,"format":"email"},` +
		`"age":{"type":"integer","minimum":0,"maximum":"x"},` +
		`"color":{"type":"string","enum":["red","blue"]}}}`)
	want := []FieldRule{
		{Name: "name", Type: "string", Required: true, Format: "email", MinLength: i(1), MaxLength: i(2)},
		{Name: "age", Type: "integer", Required: true, Minimum: f(0)},
		{Name: "color", Type: "enum", Options: []string{"red", "blue"}},
	}
	if diff := cmp.Diff(want, FieldRules(schema)); diff != "" {
		t.Errorf("FieldRules (-want +got):\n%s", diff)
	}
	if got := FieldRules(jsontext.Value(`{"type":"object"}`)); got != nil {
		t.Errorf("FieldRules without properties = %v, want nil", got)
	}
}
