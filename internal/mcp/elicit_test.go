package mcp

import (
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseElicitRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, params string
		want         ElicitRequest
	}{{
		name:   "no mode is form; names, types, required and enum options only",
		params: `{"message":"Who?","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x","enum":["x"]},"b":{"type":"integer","examples":[1]}},"required":["b","zz"]}}`,
		want:   ElicitRequest{Mode: ModeForm, Message: "Who?", Fields: []ElicitField{{Name: "a", Type: FieldEnum, Options: []string{"x"}}, {Name: "b", Type: "integer", Required: true}}},
	}, {
		name:   "placeholder and typeless subschemas are unknown; a type array is a union",
		params: `{"mode":"form","message":"m","requestedSchema":{"properties":{"p":"[REDACTED]","q":{"title":"t"},"r":{"type":["string","null"]},"s":null}}}`,
		want: ElicitRequest{Mode: ModeForm, Message: "m", Fields: []ElicitField{
			{Name: "p", Type: FieldUnknown, Required: false}, {Name: "q", Type: FieldUnknown, Required: false}, {Name: "r", Type: "string|null", Required: false}, {Name: "s", Type: FieldUnknown, Required: false}}},
	}, {
		name:   "form without a schema has no fields but a field list",
		params: `{"message":"m"}`,
		want:   ElicitRequest{Mode: ModeForm, Message: "m", Fields: []ElicitField{}},
	}, {
		name:   "url mode keeps url and elicitationId, never fields",
		params: `{"mode":"url","elicitationId":"el-1","url":"https://a.example/x","message":"m","requestedSchema":{"properties":{"a":{"type":"string"}}}}`,
		want:   ElicitRequest{Mode: ModeURL, Message: "m", URL: "https://a.example/x", ElicitationID: "el-1"},
	}, {
		name:   "an unknown mode is kept verbatim with neither fields nor url",
		params: `{"mode":"telepathy","message":"m","url":"https://a.example/"}`,
		want:   ElicitRequest{Mode: "telepathy", Message: "m"},
	}, {
		name:   "a non-string mode is form",
		params: `{"mode":1,"message":"m"}`,
		want:   ElicitRequest{Mode: ModeForm, Message: "m", Fields: []ElicitField{}},
	}, {
		name: "no params", params: ``,
		want: ElicitRequest{Mode: ModeForm, Fields: []ElicitField{}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ParseElicitRequest(jsontext.Value(tt.params))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseElicitRequest (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInputElicitations(t *testing.T) {
	t.Parallel()
	result := `{"resultType":"input_required","inputRequests":{` +
		`"z":{"params":{"message":"Z"},"method":"elicitation/create"},` +
		`"llm":{"method":"sampling/createMessage","params":{"message":"not me"}},` +
		`"ws":{"method":"roots/list"},` +
		`"a":{"method":"elicitation/create","params":{"mode":"url","message":"A","url":"https://x.example/"}}},"requestState":"s"}`
	want := []KeyedElicitation{
		{Key: "a", Request: ElicitRequest{Mode: ModeURL, Message: "A", URL: "https://x.example/"}},
		{Key: "z", Request: ElicitRequest{Mode: ModeForm, Message: "Z", Fields: []ElicitField{}}},
	}
	if diff := cmp.Diff(want, InputElicitations(jsontext.Value(result))); diff != "" {
		t.Errorf("InputElicitations (-want +got):\n%s", diff)
	}
}

func TestInputActions(t *testing.T) {
	t.Parallel()
	params := `{"name":"t","inputResponses":{"b":{"content":{"action":"from-content"},"action":"decline"},"a":{"action":"accept","content":{"x":"secret"}},` +
		`"c":{"content":{"action":"smuggled"}},"d":{"action":false},"e":{"roots":[]}},"requestState":"s"}`
	want := []KeyedAction{{"b", "decline"}, {"a", "accept"}, {"c", ""}, {"d", ""}, {"e", ""}}
	if diff := cmp.Diff(want, InputActions(jsontext.Value(params))); diff != "" {
		t.Errorf("InputActions (-want +got):\n%s", diff)
	}
	if got := ElicitAction(jsontext.Value(`{"action":"snooze"}`)); got != "snooze" {
		t.Errorf("ElicitAction = %q, want the unrecognised action verbatim", got)
	}
}

func TestRequiredElicitationsAndID(t *testing.T) {
	t.Parallel()
	data := `{"elicitations":[{"mode":"url","elicitationId":"el-6c01","url":"https://v.example/l","message":"Connect"},{"message":"f"}]}`
	want := []ElicitRequest{
		{Mode: ModeURL, Message: "Connect", URL: "https://v.example/l", ElicitationID: "el-6c01"},
		{Mode: ModeForm, Message: "f", Fields: []ElicitField{}},
	}
	if diff := cmp.Diff(want, RequiredElicitations(jsontext.Value(data))); diff != "" {
		t.Errorf("RequiredElicitations (-want +got):\n%s", diff)
	}
	if got := RequiredElicitations(jsontext.Value(`{"x":1}`)); got != nil {
		t.Errorf("RequiredElicitations without elicitations = %v", got)
	}
	if got := ElicitationID(jsontext.Value(`{"elicitationId":"el-1"}`)); got != "el-1" {
		t.Errorf("ElicitationID = %q", got)
	}
}

func TestInspectURL(t *testing.T) {
	t.Parallel()
	tests := map[string]URLInfo{
		"https://mcp.example.com/ui?flow=1":  {Host: "mcp.example.com"},
		"https://mcp.example.com:8443/":      {Host: "mcp.example.com"},
		"HTTPS://Mcp.Example.com/":           {Host: "Mcp.Example.com"},
		"http://mcp.example.com/":            {Host: "mcp.example.com", NotHTTPS: true},
		"https://10.1.2.3/x":                 {Host: "10.1.2.3", IPLiteral: true},
		"https://[2001:db8::1]:443/":         {Host: "2001:db8::1", IPLiteral: true},
		"https://2130706433/":                {Host: "2130706433", IPLiteral: true},
		"https://0x7f.1/":                    {Host: "0x7f.1", IPLiteral: true},
		"https://user:pass@mcp.example.com/": {Host: "mcp.example.com", Userinfo: true},
		"https://paypal.com@evil.example/":   {Host: "evil.example", Userinfo: true},
		"https://xn--pypal-4ve.com/":         {Host: "xn--pypal-4ve.com", IDN: true},
		"https://a.XN--p1ai/":                {Host: "a.XN--p1ai", IDN: true},
		"https://bücher.example/":            {Host: "bücher.example", IDN: true},
		"javascript:alert(1)":                {Invalid: true, NotHTTPS: true},
		"/relative/path":                     {Invalid: true, NotHTTPS: true},
		"":                                   {Invalid: true, NotHTTPS: true},
		"https://%zz/":                       {Invalid: true},
	}
	for in, want := range tests {
		if diff := cmp.Diff(want, InspectURL(in), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("InspectURL(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// FuzzParseElicitRequest checks the elicitation parsers never panic and
// that fields exist exactly in form mode.
func FuzzParseElicitRequest(f *testing.F) {
	for _, s := range []string{
		`{"message":"m","requestedSchema":{"properties":{"a":{"type":"string"}},"required":["a"]}}`,
		`{"mode":"url","url":"https://x/","elicitationId":"e"}`, `{"requestedSchema":{"properties":"x"}}`, `[]`, `{"mode":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		e := ParseElicitRequest(in)
		if (e.Mode == ModeForm) != (e.Fields != nil) {
			t.Fatalf("mode %q with fields %v", e.Mode, e.Fields)
		}
		InspectURL(string(in))
		InputElicitations(in)
		InputActions(in)
		RequiredElicitations(in)
	})
}

// TestFieldType: what the ledger and events call a property's type.
func TestFieldType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sub, typ string
		opts     []string
	}{
		{`{"type":"string","format":"email"}`, "string", nil},
		{`{"type":"string","enum":["now","tonight"]}`, FieldEnum, []string{"now", "tonight"}},
		{`{"type":"string","oneOf":[{"const":"s1","title":"Critical"},{"const":"s2","title":"High"}]}`, FieldEnum, []string{"s1", "s2"}},
		{`{"type":"array","items":{"type":"string","enum":["slack","sms"]}}`, FieldEnumList, []string{"slack", "sms"}},
		{`{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]}}`, FieldEnumList, []string{"a"}},
		{`{"anyOf":[{"type":"string"},{"type":"null"}],"default":null}`, "string|null", nil},
		{`{"type":["integer","null"]}`, "integer|null", nil},
		{`{"anyOf":[{"type":"string"},{"title":"x"}]}`, FieldUnknown, nil},
		{`"[REDACTED]"`, FieldUnknown, nil},
		{`{"type":"integer","enum":[1,2]}`, "integer", nil},
	}
	for _, tt := range tests {
		typ, opts := FieldType([]byte(tt.sub))
		if typ != tt.typ || !slices.Equal(opts, tt.opts) {
			t.Errorf("FieldType(%s) = %q %q; want %q %q", tt.sub, typ, opts, tt.typ, tt.opts)
		}
	}
}
