package jsonexport

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestCatalog checks the catalog member: where it sits, its shape, a
// schema the server spread over lines kept to one, and hostile strings
// quoted rather than dropped.
func TestCatalog(t *testing.T) {
	t.Parallel()
	snap := sampleSnapshot()
	hash := strings.Repeat("0f", 32)
	snap.Catalog = &store.Catalog{
		Lists: []store.CatalogList{{Method: "tools/list", Kind: store.KindTool, Seq: 7, Pages: 2, Complete: true,
			Definitions: []store.Definition{
				{Definition: mcp.Definition{Key: "t\x1b[2J\xff", Name: "t\x1b[2J\xff", Title: "T", Description: "d",
					InputSchema: jsontext.Value("{\n  \"type\": \"object\"\n}"), OutputSchema: jsontext.Value(`{"type":"object"}`),
					Annotations: jsontext.Value(`{"readOnlyHint":true}`)}, Hash: hash, Seq: 3},
			}}, {Method: "resources/templates/list", Kind: store.KindResourceTemplate, Seq: 9, Pages: 1,
			Definitions: []store.Definition{{Definition: mcp.Definition{Key: "f://{p}", Name: "f", URITemplate: "f://{p}", MimeType: "text/plain"}, Hash: hash, Seq: 9}}},
		},
		Changes: []store.CatalogChange{
			{Seq: 7, Kind: store.KindTool, Key: "u", Change: store.ChangeRemoved, PrevHash: hash, Notified: 6},
			{Seq: 7, Kind: store.KindTool, Key: "t", Change: store.ChangeAdded, Hash: hash},
		},
	}
	out := render(t, nil, snap, nil)
	if !jsontext.Value(out).IsValid() {
		t.Fatalf("export is not valid JSON:\n%s", out)
	}
	if !strings.Contains(out, `"input_schema":{"type":"object"},`) {
		t.Errorf("the multi-line input schema is not compacted:\n%s", out)
	}
	dec := jsontext.NewDecoder(strings.NewReader(out))
	dec.ReadToken()
	var keys []string
	for dec.PeekKind() != '}' {
		k, _ := dec.ReadToken()
		keys = append(keys, k.String())
		dec.SkipValue()
	}
	if diff := cmp.Diff([]string{"session", "frames", "calls", "operations", "catalog", "summary", "findings"}, keys); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	var doc struct {
		Catalog any `json:"catalog"`
	}
	if err := json.Unmarshal([]byte(out), &doc, jsontext.AllowInvalidUTF8(true)); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"lists": []any{
			map[string]any{"method": "tools/list", "kind": "tool", "seq": 7.0, "pages": 2.0, "complete": true, "definitions": []any{
				map[string]any{"key": "t\x1b[2J\ufffd", "name": "t\x1b[2J\ufffd", "title": "T", "description": "d",
					"input_schema": map[string]any{"type": "object"}, "output_schema": map[string]any{"type": "object"},
					"annotations": map[string]any{"readOnlyHint": true}, "hash": hash, "seq": 3.0},
			}},
			map[string]any{"method": "resources/templates/list", "kind": "resource-template", "seq": 9.0, "pages": 1.0, "complete": false,
				"definitions": []any{map[string]any{"key": "f://{p}", "name": "f", "uri_template": "f://{p}", "mime_type": "text/plain", "hash": hash, "seq": 9.0}}},
		},
		"changes": []any{
			map[string]any{"seq": 7.0, "kind": "tool", "key": "u", "change": "removed", "previous_hash": hash, "notified_seq": 6.0},
			map[string]any{"seq": 7.0, "kind": "tool", "key": "t", "change": "added", "hash": hash},
		},
	}
	if diff := cmp.Diff(want, doc.Catalog); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
}
