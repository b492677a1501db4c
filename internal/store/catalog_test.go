package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// listReq is a modern list request; cursor "" asks for the first page.
func listReq(id, method, cursor string) string {
	params := "{" + meta + "}"
	if cursor != "" {
		params = fmt.Sprintf(`{"cursor":%q,%s}`, cursor, meta)
	}
	return req(id, method, params)
}

// listRes is a complete list result; next "" ends the listing.
func listRes(id, member, next string, items ...string) string {
	r := fmt.Sprintf(`{"resultType":"complete","ttlMs":0,"cacheScope":"private",%q:[%s]`, member, strings.Join(items, ","))
	if next != "" {
		r += fmt.Sprintf(`,"nextCursor":%q`, next)
	}
	return res(id, r+"}")
}

// Tool definitions used below; toolA2 is toolA with a changed description.
const (
	toolA  = `{"name":"a","description":"first","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`
	toolA2 = `{"name":"a","description":"first, changed","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`
	toolB  = `{"name":"b","title":"Bee","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`
	toolC  = `{"name":"c","inputSchema":{"type":"object"}}`
)

// catalogLines renders a catalog compactly: one line per list with its
// definitions (key@hash prefix@seq), one per change.
func catalogLines(c *Catalog) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, l := range c.Lists {
		var defs []string
		for _, d := range l.Definitions {
			defs = append(defs, fmt.Sprintf("%s@%s@%d", d.Key, d.Hash[:8], d.Seq))
		}
		out = append(out, fmt.Sprintf("%s %s seq=%d pages=%d complete=%v [%s]",
			l.Method, l.Kind, l.Seq, l.Pages, l.Complete, strings.Join(defs, " ")))
	}
	for _, ch := range c.Changes {
		out = append(out, fmt.Sprintf("#%d %s %s %s %s<-%s notified=%d",
			ch.Seq, ch.Kind, ch.Key, ch.Change, short(ch.Hash), short(ch.PrevHash), ch.Notified))
	}
	return out
}

func short(h string) string {
	if h == "" {
		return "-"
	}
	return h[:8]
}

// h8 is the hash prefix catalogLines shows for a definition.
func h8(def string) string { return DefinitionHash([]byte(def))[:8] }

func TestCatalog(t *testing.T) {
	t.Parallel()
	changed := notif("notifications/tools/list_changed", `{}`)
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{{
		name:  "nothing listed",
		steps: []step{c2s(0, tool("1", "a", `{}`, "")), s2c(1, done("1"))},
	}, {
		name: "pagination",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			s2c(1, listRes("1", "tools", "p2", toolA, toolB)),
			c2s(1, listReq("2", "tools/list", "p2")),
			s2c(1, listRes("2", "tools", "", toolC)),
		},
		want: []string{fmt.Sprintf("tools/list tool seq=4 pages=2 complete=true [a@%s@2 b@%s@2 c@%s@4]", h8(toolA), h8(toolB), h8(toolC))},
	}, {
		name: "list_changed then a changed list",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			s2c(1, listRes("1", "tools", "", toolA, toolB)),
			s2c(1, changed),
			c2s(1, listReq("2", "tools/list", "")),
			s2c(1, listRes("2", "tools", "", toolC, toolA2)),
		},
		want: []string{
			fmt.Sprintf("tools/list tool seq=5 pages=2 complete=true [c@%s@5 a@%s@5]", h8(toolC), h8(toolA2)),
			fmt.Sprintf("#5 tool c added %s<-- notified=3", h8(toolC)),
			fmt.Sprintf("#5 tool a changed %s<-%s notified=3", h8(toolA2), h8(toolA)),
			fmt.Sprintf("#5 tool b removed -<-%s notified=3", h8(toolB)),
		},
	}, {
		name: "a re-list without list_changed, identical then changed",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			s2c(1, listRes("1", "tools", "", toolA)),
			c2s(1, listReq("2", "tools/list", "")),
			s2c(1, listRes("2", "tools", "", toolA)),
			c2s(1, listReq("3", "tools/list", "")),
			s2c(1, listRes("3", "tools", "", toolA2)),
		},
		want: []string{
			fmt.Sprintf("tools/list tool seq=6 pages=3 complete=true [a@%s@6]", h8(toolA2)),
			fmt.Sprintf("#6 tool a changed %s<-%s notified=0", h8(toolA2), h8(toolA)),
		},
	}, {
		name: "an unfinished listing removes nothing",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			s2c(1, listRes("1", "tools", "", toolA, toolB)),
			c2s(1, listReq("2", "tools/list", "")),
			s2c(1, listRes("2", "tools", "more", toolC)),
		},
		want: []string{
			fmt.Sprintf("tools/list tool seq=4 pages=2 complete=false [a@%s@2 b@%s@2 c@%s@4]", h8(toolA), h8(toolB), h8(toolC)),
			fmt.Sprintf("#4 tool c added %s<-- notified=0", h8(toolC)),
		},
	}, {
		name: "a later page whose start the capture missed",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "p2")),
			s2c(1, listRes("1", "tools", "", toolB)),
		},
		want: []string{fmt.Sprintf("tools/list tool seq=2 pages=1 complete=false [b@%s@2]", h8(toolB))},
	}, {
		name: "errors, interim results and server requests are not lists",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			s2c(1, errRes("1", -32601, "no tools")),
			c2s(1, listReq("2", "tools/list", "")),
			s2c(1, inputRequired("2", elicit("k"), "st")),
			s2c(1, listReq("9", "tools/list", "")),
			c2s(1, listRes("9", "tools", "", toolA)),
		},
	}, {
		name: "every kind, keyed by name, uri and uriTemplate",
		steps: []step{
			c2s(0, req("1", "resources/templates/list", "")),
			s2c(1, listRes("1", "resourceTemplates", "", `{"uriTemplate":"file:///{path}","name":"files"}`)),
			c2s(0, req("2", "resources/list", "")),
			s2c(1, listRes("2", "resources", "", `{"uri":"file:///a","name":"a","mimeType":"text/plain"}`)),
			c2s(0, req("3", "prompts/list", "")),
			s2c(1, listRes("3", "prompts", "", `{"name":"review","arguments":[{"name":"lang"}]}`)),
			c2s(0, req("4", "tools/list", "")),
			s2c(1, listRes("4", "tools", "", toolA)),
		},
		want: []string{
			fmt.Sprintf("tools/list tool seq=8 pages=1 complete=true [a@%s@8]", h8(toolA)),
			fmt.Sprintf("prompts/list prompt seq=6 pages=1 complete=true [review@%s@6]", h8(`{"name":"review","arguments":[{"name":"lang"}]}`)),
			fmt.Sprintf("resources/list resource seq=4 pages=1 complete=true [file:///a@%s@4]", h8(`{"uri":"file:///a","name":"a","mimeType":"text/plain"}`)),
			fmt.Sprintf("resources/templates/list resource-template seq=2 pages=1 complete=true [file:///{path}@%s@2]", h8(`{"uriTemplate":"file:///{path}","name":"files"}`)),
		},
	}, {
		name: "pipelined lists answered out of order pair by id",
		steps: []step{
			c2s(0, listReq("1", "tools/list", "")),
			c2s(0, listReq(`"1"`, "tools/list", "")),
			s2c(1, listRes(`"1"`, "tools", "", toolA)),
			s2c(1, listRes("1", "tools", "", toolA, toolB)),
		},
		want: []string{
			fmt.Sprintf("tools/list tool seq=4 pages=2 complete=true [a@%s@3 b@%s@4]", h8(toolA), h8(toolB)),
			fmt.Sprintf("#4 tool b added %s<-- notified=0", h8(toolB)),
		},
	}, {
		name: "resources/list_changed covers templates; a client's list_changed counts for nothing",
		steps: []step{
			c2s(0, req("1", "resources/templates/list", "")),
			s2c(1, listRes("1", "resourceTemplates", "", `{"uriTemplate":"a://{x}","name":"a"}`)),
			c2s(1, notif("notifications/tools/list_changed", `{}`)),
			s2c(1, notif("notifications/resources/list_changed", `{}`)),
			c2s(0, req("2", "resources/templates/list", "")),
			s2c(1, listRes("2", "resourceTemplates", "", `{"uriTemplate":"b://{x}","name":"b"}`)),
		},
		want: []string{
			fmt.Sprintf("resources/templates/list resource-template seq=6 pages=2 complete=true [b://{x}@%s@6]", h8(`{"uriTemplate":"b://{x}","name":"b"}`)),
			fmt.Sprintf("#6 resource-template b://{x} added %s<-- notified=4", h8(`{"uriTemplate":"b://{x}","name":"b"}`)),
			fmt.Sprintf("#6 resource-template a://{x} removed -<-%s notified=4", h8(`{"uriTemplate":"a://{x}","name":"a"}`)),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.want, catalogLines(snap.Catalog)); diff != "" {
				t.Errorf("catalog (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCatalogDefinition checks what a definition keeps of the wire.
func TestCatalogDefinition(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		c2s(0, listReq("1", "tools/list", "")),
		s2c(1, listRes("1", "tools", "", toolB, `"not an object"`, `{"title":"no name"}`)),
	})
	if snap.Catalog == nil || len(snap.Catalog.Lists) != 1 {
		t.Fatalf("catalog = %+v, want one list", snap.Catalog)
	}
	want := []Definition{{
		Definition: mcp.Definition{Key: "b", Name: "b", Title: "Bee",
			InputSchema: []byte(`{"type":"object"}`), OutputSchema: []byte(`{"type":"object"}`),
			Annotations: []byte(`{"readOnlyHint":true}`)},
		Hash: DefinitionHash([]byte(toolB)), Seq: 2, Line: 3, Size: len(toolB),
	}, {
		Definition: mcp.Definition{Key: "", Title: "no name"}, Hash: DefinitionHash([]byte(`{"title":"no name"}`)), Seq: 2, Line: 3,
		Size: len(`{"title":"no name"}`),
	}}
	if diff := cmp.Diff(want, snap.Catalog.Lists[0].Definitions); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
}

// TestDefinitionHash pins the hash to SHA-256 of the RFC 8785 form.
func TestDefinitionHash(t *testing.T) {
	t.Parallel()
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	canonical := `{"b":[1,{"c":"é","d":null}],"name":"t"}`
	tests := []struct {
		name, def, want string
	}{
		{"canonical", canonical, sum(canonical)},
		{"members reordered, whitespace", "{ \"name\" : \"t\",\n\t\"b\": [1.0, {\"d\": null, \"c\": \"\\u00e9\"}] }", sum(canonical)},
		{"a value changed", `{"name":"t","b":[1,{"c":"e","d":null}]}`, sum(`{"b":[1,{"c":"e","d":null}],"name":"t"}`)},
		{"array order matters", `{"name":"t","b":[{"c":"é","d":null},1]}`, sum(`{"b":[{"c":"é","d":null},1],"name":"t"}`)},
		{"duplicate names are kept", `{"n":1,"n":2}`, sum(`{"n":1,"n":2}`)},
		{"not JSON is hashed as sent", `{"n":`, sum(`{"n":`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := DefinitionHash([]byte(tt.def)); got != tt.want {
				t.Errorf("DefinitionHash(%s) = %s, want %s", tt.def, got, tt.want)
			}
		})
	}
}

// TestCatalogSnapshotShared checks that a snapshot's catalog stays as it
// was while the store goes on, and that an untouched catalog is shared.
func TestCatalogSnapshotShared(t *testing.T) {
	t.Parallel()
	s := New(nil)
	feed := func(seq uint64, dir capture.Dir, raw string) {
		s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: dir, Time: t0, Msg: []byte(raw)})
	}
	feed(1, capture.C2S, listReq("1", "tools/list", ""))
	feed(2, capture.S2C, listRes("1", "tools", "", toolA, toolB))
	first := s.Snapshot()
	before := catalogLines(first.Catalog)
	feed(3, capture.C2S, tool("2", "a", `{}`, ""))
	if again := s.Snapshot(); again.Catalog != first.Catalog {
		t.Errorf("a snapshot after a frame that listed nothing has a new catalog; want the same one shared")
	}
	feed(4, capture.C2S, listReq("3", "tools/list", ""))
	feed(5, capture.S2C, listRes("3", "tools", "", toolA2))
	feed(6, capture.C2S, listReq("4", "tools/list", ""))
	feed(7, capture.S2C, listRes("4", "tools", "", toolC, toolA))
	if diff := cmp.Diff(before, catalogLines(first.Catalog)); diff != "" {
		t.Errorf("an earlier snapshot's catalog changed (-before +after):\n%s", diff)
	}
	last := s.Snapshot().Catalog
	if n := len(last.Changes); n != 4 {
		t.Errorf("%d changes, want 4 (a changed, b removed, c added, a changed back):\n%s", n, strings.Join(catalogLines(last), "\n"))
	}
}

// TestCatalogTranscripts states by hand what the corpus sessions that list
// anything must show in their catalog, beside their goldens.
func TestCatalogTranscripts(t *testing.T) {
	t.Parallel()
	// search is listed twice, the second time with its members reordered
	// and spaced out: the hash must not see it.
	search := `{"name":"search","title":"Search","description":"Full-text search over the docs.","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"}},"required":["q"]},"annotations":{"readOnlyHint":true}}`
	tests := []struct {
		name string
		want []string
	}{{
		name: "catalog-drift",
		want: []string{
			fmt.Sprintf("tools/list tool seq=20 pages=4 complete=true [search@%s@5 fetch@8268a3ba@18 rollback@87792003@20]", h8(search)),
			"prompts/list prompt seq=9 pages=1 complete=true [review@65aac05a@9]",
			"resources/list resource seq=11 pages=1 complete=true [file:///README.md@2b0e72d0@11]",
			"resources/templates/list resource-template seq=13 pages=1 complete=true [file:///{path}@4d301950@13]",
			"#18 tool fetch changed 8268a3ba<-2b26b0a6 notified=16",
			"#20 tool rollback added 87792003<-- notified=16",
			"#20 tool deploy removed -<-f335f851 notified=16",
		},
	}, {
		// Two first pages in flight: the string id "1" is answered first with
		// no tools, so the number 1's answer adds echo.
		name: "ids-null-reused",
		want: []string{
			fmt.Sprintf("tools/list tool seq=6 pages=2 complete=true [echo@%s@6]", h8(`{"name":"echo","inputSchema":{"type":"object"}}`)),
			fmt.Sprintf("#6 tool echo added %s<-- notified=0", h8(`{"name":"echo","inputSchema":{"type":"object"}}`)),
		},
	}, {
		// The jsonrpc 1.0 request is answered with an error; the second lists
		// nothing, and that is a list too.
		name: "invalid-frames",
		want: []string{"tools/list tool seq=13 pages=1 complete=true []"},
	}, {
		// tools/list answered with input_required lists nothing.
		name: "mrtr-prompts-resources",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, transcript(t, "../../testdata/transcripts/"+tt.name+".transcript.jsonl"))
			if diff := cmp.Diff(tt.want, catalogLines(snap.Catalog)); diff != "" {
				t.Errorf("catalog (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCatalogHostile lists a huge definition and names a terminal would
// act on: the store keeps them as they decode (escaping is the views'
// job), hashes the huge one whole, and does not keep its scratch buffer.
func TestCatalogHostile(t *testing.T) {
	t.Parallel()
	huge := `{"name":"huge","description":"` + strings.Repeat("x", 2<<20) + `","inputSchema":{"type":"object"}}`
	ctrl := `{"name":"\u001b[2J\u202e\u009b","inputSchema":{"type":"object"}}`
	s := New(nil)
	for i, raw := range []string{listReq("1", "tools/list", ""), listRes("1", "tools", "", huge, ctrl)} {
		dir := capture.C2S
		if i == 1 {
			dir = capture.S2C
		}
		s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Dir: dir, Time: t0, Msg: []byte(raw)})
	}
	cat := s.Snapshot().Catalog
	if cat == nil || len(cat.Lists) != 1 {
		t.Fatalf("catalog = %+v, want one list", cat)
	}
	var got []string
	for _, d := range cat.Lists[0].Definitions {
		got = append(got, fmt.Sprintf("%q %d %v", d.Key, len(d.Description), d.Hash == DefinitionHash([]byte(map[string]string{
			"huge": huge, "\x1b[2J\u202e\u009b": ctrl}[d.Key]))))
	}
	want := []string{`"huge" 2097152 true`, `"\x1b[2J\u202e\u009b" 0 true`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
	if n := cap(s.cat.scratch); n > 1<<20 {
		t.Errorf("the store keeps a %d-byte scratch buffer after a huge definition", n)
	}
}
