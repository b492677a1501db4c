package overlay

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

func TestCapTree(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat(`{"a":`, 12) + "1" + strings.Repeat("}", 12)
	for _, tc := range []struct {
		name string
		raw  string
		want []capLine
	}{
		{"absent", "", []capLine{{depth: 1, key: "caps", val: "none"}}},
		{"empty", `{}`, []capLine{{depth: 1, key: "caps", val: "{}"}}},
		{"nested", `{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"x":[1, 2],"s":"v"}`, []capLine{
			{depth: 1, key: "caps"},
			{depth: 2, key: "elicitation"}, {depth: 3, key: "form", val: "{}"}, {depth: 3, key: "url", val: "{}"},
			{depth: 2, key: "roots"}, {depth: 3, key: "listChanged", val: "true"},
			{depth: 2, key: "x", val: "[1,2]"}, {depth: 2, key: "s", val: `"v"`},
		}},
		{"too deep", deep, []capLine{
			{depth: 1, key: "caps"}, {depth: 2, key: "a"}, {depth: 3, key: "a"}, {depth: 4, key: "a"}, {depth: 5, key: "a"},
			{depth: 6, key: "a"}, {depth: 7, key: "a"}, {depth: 8, key: "a"},
			{depth: 9, key: "a", val: strings.Repeat(`{"a":`, 4) + "1" + strings.Repeat("}", 4)},
		}},
		{"not json", `{"a":`, []capLine{{depth: 1, key: "caps", val: `{"a":  (unreadable: jsontext: unexpected EOF within "/a" after offset 5)`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var raw []byte
			if tc.raw != "" {
				raw = []byte(tc.raw)
			}
			got := capTree(nil, "caps", raw)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(capLine{})); diff != "" {
				t.Errorf("capTree (-want +got):\n%s", diff)
			}
		})
	}
	many := "{" + strings.Repeat(`"k":1,`, 1000) + `"k":1}`
	if got := capTree(nil, "caps", []byte(many)); len(got) != maxCapLines+1 || got[maxCapLines].key != "…" {
		t.Errorf("a 1001-member object gives %d lines, want %d ending in a marker", len(got), maxCapLines+1)
	}
}

// TestToolRows checks the tools overlay over a session whose catalog
// drifted: current definitions with their size, a changed and an added
// tool, a removed one that was called, and the call statistics.
func TestToolRows(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "catalog-drift")
	m := New(nil, Tools, d)
	type row struct {
		Kind, Name string
		Listed     bool
		Sized      bool
		Calls      int
		Changes    string
	}
	var got []row
	for _, r := range rowsOf[toolRows](t, m).rows {
		var chs []string
		for _, ch := range r.changes {
			chs = append(chs, ch.Change)
		}
		got = append(got, row{r.kind, r.name, r.listed, r.size > 0, r.stat.Count, strings.Join(chs, ",")})
	}
	want := []row{
		{"tool", "search", true, true, 0, ""},
		{"tool", "fetch", true, true, 0, "changed"},
		{"tool", "rollback", true, true, 0, "added"},
		{"prompt", "review", true, true, 0, ""},
		{"resource", "file:///README.md", true, true, 0, ""},
		{"resource-template", "file:///{path}", true, true, 0, ""},
		{"tool", "deploy", false, false, 1, "removed"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if len(rowsOf[toolRows](t, m).when) == 0 {
		t.Errorf("no change has a time")
	}
}
