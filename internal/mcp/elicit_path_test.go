package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestElicitPaths(t *testing.T) {
	t.Parallel()
	result := jsontext.Value(`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}},"b":{"method":"sampling/createMessage"}}}`)
	retry := jsontext.Value(`{"name":"t","inputResponses":{"a":{"action":"accept","content":{"n":1}}}}`)
	data := jsontext.Value(`{"elicitations":[{"mode":"url","url":"https://a"},{"mode":"url","url":"https://b"}]}`)
	tests := []struct {
		name string
		got  jsontext.Value
		want string
	}{
		{"question params", InputRequestParams(result, "a"), `{"message":"?","requestedSchema":{"type":"object"}}`},
		{"question without params", InputRequestParams(result, "b"), ""},
		{"question of no key", InputRequestParams(result, "z"), ""},
		{"question of a non-object", InputRequestParams(jsontext.Value(`[1]`), "a"), ""},
		{"answer", InputResponse(retry, "a"), `{"action":"accept","content":{"n":1}}`},
		{"answer of no key", InputResponse(retry, "b"), ""},
		{"required entry 0", RequiredElicitation(data, 0), `{"mode":"url","url":"https://a"}`},
		{"required entry 1", RequiredElicitation(data, 1), `{"mode":"url","url":"https://b"}`},
		{"required entry out of range", RequiredElicitation(data, 2), ""},
		{"required of no elicitations", RequiredElicitation(jsontext.Value(`{}`), 0), ""},
		{"requested schema", RequestedSchema(InputRequestParams(result, "a")), `{"type":"object"}`},
		{"content", ElicitContent(InputResponse(retry, "a")), `{"n":1}`},
		{"no content", ElicitContent(jsontext.Value(`{"action":"decline"}`)), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if string(tt.got) != tt.want {
				t.Errorf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
}
