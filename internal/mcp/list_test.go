package mcp

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestParseListPage(t *testing.T) {
	t.Parallel()
	tools, templates := ListKinds()[0], ListKinds()[3]
	tests := []struct {
		name   string
		kind   ListKind
		result string
		want   ListPage
	}{
		{"a page with more to come", tools, `{"tools":[{"name":"a"}, {"name":"b"}],"nextCursor":"c\u0032","ttlMs":0}`,
			ListPage{Items: []jsontext.Value{jsontext.Value(`{"name":"a"}`), jsontext.Value(`{"name":"b"}`)}, NextCursor: "c2"}},
		{"the last page", templates, `{"resourceTemplates":[{"uriTemplate":"f://{x}"}]}`,
			ListPage{Items: []jsontext.Value{jsontext.Value(`{"uriTemplate":"f://{x}"}`)}}},
		{"another kind's member", tools, `{"prompts":[{"name":"a"}]}`, ListPage{}},
		{"an empty list, an empty cursor", tools, `{"tools":[],"nextCursor":""}`, ListPage{}},
		{"not an array, not a string", tools, `{"tools":{"name":"a"},"nextCursor":7}`, ListPage{}},
		{"not an object", tools, `[1]`, ListPage{}},
		{"a repeated member counts as its last", tools, `{"tools":[{"name":"a"}],"nextCursor":"c","tools":[{"name":"b"}],"nextCursor":""}`,
			ListPage{Items: []jsontext.Value{jsontext.Value(`{"name":"b"}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, ParseListPage(tt.kind, jsontext.Value(tt.result))); diff != "" {
				t.Errorf("ParseListPage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseDefinition(t *testing.T) {
	t.Parallel()
	k := ListKinds()
	tests := []struct {
		name string
		kind ListKind
		item string
		want Definition
		ok   bool
	}{
		{"a tool", k[0], `{"name":"t","title":"T","description":"d","inputSchema":{"type":"object"},"outputSchema":{},"annotations":{"readOnlyHint":true},"_meta":{}}`,
			Definition{Key: "t", Name: "t", Title: "T", Description: "d", InputSchema: jsontext.Value(`{"type":"object"}`),
				OutputSchema: jsontext.Value(`{}`), Annotations: jsontext.Value(`{"readOnlyHint":true}`)}, true},
		{"a prompt", k[1], `{"name":"p","arguments":[{"name":"x"}]}`,
			Definition{Key: "p", Name: "p", Arguments: jsontext.Value(`[{"name":"x"}]`)}, true},
		{"a resource is keyed by uri", k[2], `{"name":"n","uri":"file:///a","mimeType":"text/plain"}`,
			Definition{Key: "file:///a", Name: "n", URI: "file:///a", MimeType: "text/plain"}, true},
		{"a template by uriTemplate", k[3], `{"name":"n","uriTemplate":"f://{x}"}`,
			Definition{Key: "f://{x}", Name: "n", URITemplate: "f://{x}"}, true},
		{"a name that is not a string", k[0], `{"name":1}`, Definition{}, true},
		{"not an object", k[0], `"t"`, Definition{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := ParseDefinition(tt.kind, jsontext.Value(tt.item))
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.ok {
				t.Errorf("ParseDefinition = %v (-want +got):\n%s", ok, diff)
			}
		})
	}
}

func TestHasCursor(t *testing.T) {
	t.Parallel()
	for params, want := range map[string]bool{
		``:                          false,
		`{"_meta":{}}`:              false,
		`{"cursor":"c","_meta":{}}`: true,
		`{"cursor":""}`:             true,
		`{"cursor":null}`:           false,
	} {
		if got := HasCursor(jsontext.Value(params)); got != want {
			t.Errorf("HasCursor(%s) = %v, want %v", params, got, want)
		}
	}
}

// FuzzParseListPage checks that a list result never panics the parser and
// that every item it returns is one element of the kind's array.
func FuzzParseListPage(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}},"x",[]],"nextCursor":"n"}`))
	f.Add([]byte(`{"tools":[{"name":"\u001b"},{"name":1}]}`))
	f.Fuzz(func(t *testing.T, result []byte) {
		k := ListKinds()[0]
		p := ParseListPage(k, result)
		for _, item := range p.Items {
			if jsontext.Value(result).IsValid() && !jsontext.Value(item).IsValid() {
				t.Fatalf("item %q of a valid result is not valid JSON", item)
			}
			ParseDefinition(k, item)
		}
		HasCursor(result)
	})
}
