package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestMessagePaths(t *testing.T) {
	t.Parallel()
	call := jsontext.Value(`{"name":"search","arguments":{"q":"x"},"name":"second"}`)
	read := jsontext.Value(`{"uri":"file:///a","name":"n"}`)
	interim := jsontext.Value(`{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create"},"b":{"method":5}},"requestState":"s1"}`)
	tests := []struct {
		name, got, want string
	}{
		{"tool name, the first of two", ToolName(call), "search"},
		{"tool name absent", ToolName(jsontext.Value(`{}`)), ""},
		{"tool name not a string", ToolName(jsontext.Value(`{"name":1}`)), ""},
		{"arguments", string(ToolArguments(call)), `{"q":"x"}`},
		{"mirrored name of tools/call", MirroredName(MethodToolsCall, call), "search"},
		{"mirrored name of prompts/get", MirroredName(MethodPromptsGet, call), "search"},
		{"mirrored uri of resources/read", MirroredName(MethodResourcesRead, read), "file:///a"},
		{"no mirror for tools/list", MirroredName(MethodToolsList, call), ""},
		{"input requests", string(InputRequests(interim)), `{"a":{"method":"elicitation/create"},"b":{"method":5}}`},
		{"entry method", InputRequestMethod(jsontext.Value(`{"method":"elicitation/create"}`)), MethodElicit},
		{"entry method not a string", InputRequestMethod(jsontext.Value(`{"method":5}`)), ""},
		{"request state", string(RequestState(interim)), `"s1"`},
		{"no request state", string(RequestState(call)), ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	for _, m := range []string{MethodToolsCall, MethodPromptsGet, MethodResourcesRead} {
		if !NamedMethod(m) {
			t.Errorf("NamedMethod(%s) = false", m)
		}
	}
	if NamedMethod(MethodToolsList) || NamedMethod(MethodInitialize) {
		t.Error("NamedMethod holds for a method without Mcp-Name")
	}
	if v, ok := InitializeVersion(jsontext.Value(`{"protocolVersion":"2025-11-25","capabilities":{}}`)); !ok || v != Version20251125 {
		t.Errorf("InitializeVersion = %q, %v", v, ok)
	}
	if _, ok := InitializeVersion(jsontext.Value(`{"capabilities":{}}`)); ok {
		t.Error("InitializeVersion without protocolVersion is ok")
	}
}
