package mcp

import (
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
		name:   "no mode is form; names, types and required only",
		params: `{"message":"Who?","requestedSchema":{"type":"object","properties":{"a":{"type":"string","default":"x","enum":["x"]},"b":{"type":"integer","examples":[1]}},"required":["b","zz"]}}`,
		want:   ElicitRequest{Mode: ModeForm, Message: "Who?", Fields: []ElicitField{{"a", "string", false, ""}, {"b", "integer", true, ""}}},
	}, {
		name:   "placeholder, typeless and non-string-typed subschemas are unknown",
		params: `{"mode":"form","message":"m","requestedSchema":{"properties":{"p":"[REDACTED]","q":{"title":"t"},"r":{"type":["string","null"]},"s":null}}}`,
		want: ElicitRequest{Mode: ModeForm, Message: "m", Fields: []ElicitField{
			{"p", FieldUnknown, false, ""}, {"q", FieldUnknown, false, ""}, {"r", FieldUnknown, false, ""}, {"s", FieldUnknown, false, ""}}},
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
