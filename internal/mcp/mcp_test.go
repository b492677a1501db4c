package mcp

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"acme","version":"3.2.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}`

func TestParseRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		params string
		want   Request
	}{{
		name: "modern tools/call retry", method: MethodToolsCall,
		params: `{"name":"deploy","arguments":{"b":1,"a":2},"inputResponses":{"z":{},"a":{"action":"accept"}},"requestState":"st\u0031",` + modernMeta + `}`,
		want: Request{
			Modern: true, ProtocolVersion: "2026-07-28",
			ClientCapabilities: jsontext.Value(`{"elicitation":{"form":{},"url":{}}}`),
			ClientInfo:         jsontext.Value(`{"name":"acme","version":"3.2.0"}`),
			Target:             "deploy", Arguments: jsontext.Value(`{"b":1,"a":2}`),
			HasInputResponses: true, InputResponseKeys: []string{"a", "z"},
			HasRequestState: true, RequestState: "st1",
		},
	}, {
		name: "resources/read targets the uri", method: MethodResourcesRead,
		params: `{"uri":"file:///a b",` + modernMeta + `}`,
		want: Request{
			Modern: true, ProtocolVersion: "2026-07-28",
			ClientCapabilities: jsontext.Value(`{"elicitation":{"form":{},"url":{}}}`),
			ClientInfo:         jsontext.Value(`{"name":"acme","version":"3.2.0"}`),
			Target:             "file:///a b",
		},
	}, {
		name: "initialize", method: MethodInitialize,
		params: `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`,
		want: Request{
			InitVersion:        "2025-11-25",
			ClientCapabilities: jsontext.Value(`{"elicitation":{}}`),
			ClientInfo:         jsontext.Value(`{"name":"c","version":"1"}`),
		},
	}, {
		name: "capabilities outside initialize and _meta are not the client's", method: "x",
		params: `{"capabilities":{"a":1},"clientInfo":{},"protocolVersion":"v"}`,
		want:   Request{},
	}, {
		name: "modern even with a non-string version; empty state and empty responses", method: MethodPromptsGet,
		params: `{"name":"p","requestState":"","inputResponses":{},"_meta":{"io.modelcontextprotocol/protocolVersion":7}}`,
		want: Request{
			Modern: true, Target: "p", HasRequestState: true, HasInputResponses: true,
		},
	}, {
		name: "no params", method: "tools/list", params: ``, want: Request{},
	}, {
		name: "params not an object", method: "x", params: `[1,2]`, want: Request{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ParseRequest(tt.method, jsontext.Value(tt.params))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseRequest (-want +got):\n%s", diff)
			}
			if got.IsRetry() != (tt.want.HasInputResponses || tt.want.HasRequestState) {
				t.Errorf("IsRetry = %v", got.IsRetry())
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		result string
		want   Result
	}{{
		name: "interim result with three kinds of input request",
		result: `{"resultType":"input_required","requestState":"s1","inputRequests":{` +
			`"roots":{"method":"roots/list"},"ask":{"params":{"method":"nested"},"method":"elicitation/create"},"llm":{"method":"sampling/createMessage","params":{}}}}`,
		want: Result{
			ResultType: ResultInputRequired, HasRequestState: true, RequestState: "s1", HasInputRequests: true,
			InputRequests: []InputRequest{{"ask", MethodElicit}, {"llm", MethodSampling}, {"roots", MethodRootsList}},
		},
	}, {
		name:   "tool error with serverInfo in _meta",
		result: `{"resultType":"complete","isError":true,"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`,
		want:   Result{ResultType: ResultComplete, IsError: true, MetaServerInfo: jsontext.Value(`{"name":"s","version":"1"}`)},
	}, {
		name:   "legacy initialize result",
		result: `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"2"}}`,
		want: Result{ProtocolVersion: "2025-06-18", Capabilities: jsontext.Value(`{"tools":{}}`),
			ServerInfo: jsontext.Value(`{"name":"s","version":"2"}`)},
	}, {
		name:   "isError must be true, not truthy",
		result: `{"isError":"true"}`,
		want:   Result{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ParseResult(jsontext.Value(tt.result))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseResult (-want +got):\n%s", diff)
			}
		})
	}
}

func TestElicitationModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		caps string
		want Elicitation
	}{
		{`{"elicitation":{}}`, Elicitation{Form: true}},
		{`{"elicitation":{"form":{}}}`, Elicitation{Form: true}},
		{`{"elicitation":{"url":{}}}`, Elicitation{URL: true}},
		{`{"elicitation":{"form":{},"url":{}}}`, Elicitation{Form: true, URL: true}},
		{`{"elicitation":{"other":{}}}`, Elicitation{Form: true}},
		{`{"elicitation":true}`, Elicitation{}},
		{`{"sampling":{}}`, Elicitation{}},
		{`{}`, Elicitation{}},
		{``, Elicitation{}},
	}
	for _, tt := range tests {
		if got := ElicitationModes(jsontext.Value(tt.caps)); got != tt.want {
			t.Errorf("ElicitationModes(%s) = %+v, want %+v", tt.caps, got, tt.want)
		}
	}
}

func TestParseImplementation(t *testing.T) {
	t.Parallel()
	got := ParseImplementation(jsontext.Value(`{"title":"T","name":"n\u00e9","version":"1.0","icons":[{"src":"x"}]}`))
	if want := (Implementation{Name: "né", Version: "1.0"}); got != want {
		t.Errorf("ParseImplementation = %+v, want %+v", got, want)
	}
}

func TestCancelledRequestID(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`{"requestId":1,"reason":"x"}`:   "1",
		`{"reason":"x","requestId":"a"}`: `"a"`,
		`{"requestId":null}`:             "",
		`{"requestId":{}}`:               "",
		`{}`:                             "",
		``:                               "",
	}
	for in, want := range tests {
		if got := CancelledRequestID(jsontext.Value(in)); got != want {
			t.Errorf("CancelledRequestID(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestCanonicalArgumentsAndCovers(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{`{"a":1,"b":{"d":[1,2],"c":"x"}}`, `{ "b":{"c":"x","d":[1,2]},"a":1.0 }`},
		{``, `{}`},
	}
	for _, p := range same {
		if a, b := CanonicalArguments(jsontext.Value(p[0])), CanonicalArguments(jsontext.Value(p[1])); a != b {
			t.Errorf("CanonicalArguments(%s) = %s, (%s) = %s; want equal", p[0], a, p[1], b)
		}
	}
	if CanonicalArguments(jsontext.Value(`{"a":[1,2]}`)) == CanonicalArguments(jsontext.Value(`{"a":[2,1]}`)) {
		t.Error("array order must matter")
	}
	reqs := []InputRequest{{Key: "a"}, {Key: "c"}}
	if !Covers([]string{"a", "b", "c"}, reqs) || Covers([]string{"a"}, reqs) || !Covers(nil, nil) {
		t.Error("Covers wrong")
	}
}

func TestRetryable(t *testing.T) {
	t.Parallel()
	for _, m := range []string{MethodToolsCall, MethodPromptsGet, MethodResourcesRead} {
		if !Retryable(m) {
			t.Errorf("Retryable(%s) = false", m)
		}
	}
	for _, m := range []string{MethodDiscover, "tools/list", MethodElicit, ""} {
		if Retryable(m) {
			t.Errorf("Retryable(%s) = true", m)
		}
	}
	if !ServerInitiated(MethodElicit) || !ServerInitiated(MethodPing) || ServerInitiated(MethodToolsCall) {
		t.Error("ServerInitiated wrong")
	}
}

// FuzzEachMember checks the scanner against jsontext: on any valid JSON
// object it yields the same members; on anything else it must not panic.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[1,{"c":"}"}],"d\"e":"x\\","f":null,"g":-1.5e3,"h":true}`,
		`{}`, ` { "a" : { } } `, `{"a":"\u0062"}`, `[1]`, `{"a":`, `{"a":1,}`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		type member struct{ Name, Value string }
		var got []member
		ok := eachMember(in, func(name, val []byte) bool {
			got = append(got, member{string(name), string(val)})
			return true
		})
		jsonraw.EachElement(in, func([]byte) {})
		v := jsontext.Value(in)
		if !v.IsValid(jsontext.AllowDuplicateNames(true)) || v.Kind() != '{' {
			return
		}
		if !ok {
			t.Fatalf("eachMember failed on a valid object %q", in)
		}
		var want []member
		dec := jsontext.NewDecoder(bytes.NewBuffer(bytes.Clone(in)), jsontext.AllowDuplicateNames(true))
		if _, err := dec.ReadToken(); err != nil {
			t.Fatal(err)
		}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				t.Fatal(err)
			}
			name := tok.String()
			val, err := dec.ReadValue()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, member{name, string(val)})
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("members of %q (-jsontext +eachMember):\n%s", in, diff)
		}
	})
}
