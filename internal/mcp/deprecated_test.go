package mcp

import (
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

func TestInputDeprecations(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		result string
		want   []DeprecatedUse
	}{
		"sampling with a deprecated includeContext, roots, a titled enum": {
			result: `{"resultType":"input_required","inputRequests":{` +
				`"s":{"method":"sampling/createMessage","params":{"includeContext":"allServers"}},` +
				`"n":{"method":"sampling/createMessage","params":{"includeContext":"none"}},` +
				`"r":{"method":"roots/list"},` +
				`"e":{"method":"elicitation/create","params":{"requestedSchema":{"properties":{` +
				`"a":{"type":"string","enum":["x"],"enumNames":["X"]},"b":{"type":"string","enum":["x"]},"c":{"type":"string","oneOf":[{"const":"x","title":"X"}]}}}}}}}`,
			want: []DeprecatedUse{
				{Feature: DeprecatedSampling, Key: "s"}, {Feature: DeprecatedIncludeContext, Key: "s", Detail: "allServers"},
				{Feature: DeprecatedSampling, Key: "n"}, {Feature: DeprecatedRoots, Key: "r"},
				{Feature: DeprecatedTitledEnum, Key: "e", Detail: "a"},
			},
		},
		"an escaped method is read unescaped": {
			result: `{"inputRequests":{"k":{"method":"roots\/list"}}}`,
			want:   []DeprecatedUse{{Feature: DeprecatedRoots, Key: "k"}},
		},
		"no inputRequests":   {result: `{"content":[]}`},
		"inputRequests null": {result: `{"inputRequests":null}`},
		"not an object":      {result: `[1,2]`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, InputDeprecations(jsontext.Value(tc.result))); diff != "" {
				t.Errorf("InputDeprecations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLogLevel(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]struct {
		lvl string
		ok  bool
	}{
		`{"_meta":{"io.modelcontextprotocol/logLevel":"debug"}}`: {"debug", true},
		`{"_meta":{"io.modelcontextprotocol/logLevel":3}}`:       {"3", true},
		`{"_meta":{}}`:         {"", false},
		`{"logLevel":"debug"}`: {"", false},
	} {
		lvl, ok := LogLevel(jsontext.Value(in))
		if lvl != want.lvl || ok != want.ok {
			t.Errorf("LogLevel(%s) = %q, %v; want %q, %v", in, lvl, ok, want.lvl, want.ok)
		}
	}
}

// FuzzInputDeprecations holds InputDeprecations to its contract on any
// bytes: no panic, every use names a known feature, and a key of the
// result's inputRequests.
func FuzzInputDeprecations(f *testing.F) {
	f.Add([]byte(`{"inputRequests":{"s":{"method":"sampling/createMessage","params":{"includeContext":"thisServer"}},"r":{"method":"roots/list"}}}`))
	f.Add([]byte(`{"inputRequests":{"e":{"method":"elicitation/create","params":{"requestedSchema":{"properties":{"a":{"enum":["x"],"enumNames":["X"]}}}}}}}`))
	f.Add([]byte(`{"inputRequests":{"\u0073":{"method":"roots/list"`))
	known := []string{DeprecatedSampling, DeprecatedRoots, DeprecatedIncludeContext, DeprecatedTitledEnum}
	f.Fuzz(func(t *testing.T, b []byte) {
		uses := InputDeprecations(jsontext.Value(b))
		var keys []string
		for _, ir := range parseInputRequests(jsonraw.Member(b, "inputRequests")) {
			keys = append(keys, ir.Key)
		}
		for _, u := range uses {
			if !slices.Contains(known, u.Feature) {
				t.Fatalf("unknown feature %q", u.Feature)
			}
			if !slices.Contains(keys, u.Key) {
				t.Fatalf("key %q is not an inputRequests key %q", u.Key, keys)
			}
		}
		LogLevel(jsontext.Value(b))
	})
}
