package textexport

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

func TestCatalogSection(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("ab", 32)
	huge := strings.Repeat("é", 1<<19) // a megabyte of name
	tests := []struct {
		name string
		cat  *store.Catalog
		want string
	}{{
		name: "nothing listed",
	}, {
		name: "an empty list",
		cat:  &store.Catalog{Lists: []store.CatalogList{{Method: "tools/list", Kind: store.KindTool, Seq: 4, Pages: 1, Complete: true}}},
		want: "\ncatalog (0 changes)\n  tools/list: 0 definitions, 1 page, latest #4, complete\n",
	}, {
		name: "changes, a removal, and more changes than a cell shows",
		cat: &store.Catalog{
			Lists: []store.CatalogList{
				{Method: "tools/list", Kind: store.KindTool, Seq: 9, Pages: 3, Definitions: []store.Definition{{Definition: mcp.Definition{Key: "a"}, Hash: hash}, {Definition: mcp.Definition{Key: "b"}, Hash: hash}}},
				{Method: "prompts/list", Kind: store.KindPrompt, Seq: 2, Pages: 1, Complete: true, Definitions: []store.Definition{{Definition: mcp.Definition{Key: ""}, Hash: hash}}},
			},
			Changes: []store.CatalogChange{
				{Seq: 5, Kind: store.KindTool, Key: "b", Change: store.ChangeAdded, Notified: 4},
				{Seq: 5, Kind: store.KindTool, Key: "gone", Change: store.ChangeRemoved, Notified: 4},
				{Seq: 6, Kind: store.KindTool, Key: "a", Change: store.ChangeChanged},
				{Seq: 7, Kind: store.KindTool, Key: "a", Change: store.ChangeChanged},
				{Seq: 8, Kind: store.KindTool, Key: "a", Change: store.ChangeChanged},
				{Seq: 9, Kind: store.KindTool, Key: "a", Change: store.ChangeChanged},
				{Seq: 9, Kind: store.KindTool, Key: "a", Change: store.ChangeChanged},
			},
		},
		want: `
catalog (7 changes)
  tools/list: 2 definitions, 3 pages, latest #9
  prompts/list: 1 definition, 1 page, latest #2, complete
  KIND    NAME    HASH          CHANGES
  tool    a       abababababab  changed #6, changed #7, changed #8, 2 more
  tool    b       abababababab  added #5 (list_changed #4)
  prompt  (none)  abababababab  -
  tool    gone    -             removed #5 (list_changed #4)
`,
	}, {
		name: "hostile names",
		cat: &store.Catalog{Lists: []store.CatalogList{{Method: "tools/list", Kind: store.KindTool, Seq: 2, Pages: 1, Complete: true,
			Definitions: []store.Definition{{Definition: mcp.Definition{Key: evil}, Hash: hash}, {Definition: mcp.Definition{Key: "bad\xff\xfeutf8"}, Hash: hash}, {Definition: mcp.Definition{Key: huge}, Hash: hash}}}}},
		want: `
catalog (0 changes)
  tools/list: 3 definitions, 1 page, latest #2, complete
  KIND  NAME                                                                                 HASH          CHANGES
  tool  \x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]8;;http://evil.example\x1b\link\x1b... (83 bytes)  abababababab  -
  tool  bad\xff\xfeutf8                                                                      abababababab  -
  tool  ` + strings.Repeat("é", 24) + `... (1048576 bytes)                                          abababababab  -
`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			writeCatalog(w, &store.Snapshot{Catalog: tt.cat}, Layout{})
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("catalog section (-want +got):\n%s", diff)
			}
			for i, r := range buf.String() {
				if r == utf8.RuneError || (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || isBidiControl(r) {
					t.Errorf("the section holds %U at byte %d", r, i)
					break
				}
			}
		})
	}
}
