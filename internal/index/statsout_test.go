package index

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStatsCSVFormulas: a text cell that starts with = + - @, a tab or a
// carriage return is written with a leading ', whatever its column; a
// number, negative ones included, is written as a number.
func TestStatsCSVFormulas(t *testing.T) {
	t.Parallel()
	tab := &Table{
		Columns: []Column{{Name: "name", Kind: Text}, {Name: "n", Kind: Int}, {Name: "ms", Kind: Milli}},
		Rows: [][]any{
			{"=HYPERLINK(\"http://x\")", -3, -1.5},
			{"+1", 0, nil},
			{"-1", 2, 0.25},
			{"@SUM(A1)", 1, 1.0},
			{"\tx", 1, 1.0},
			{"\rx", 1, 1.0},
			{"plain=1", 1, 1.0},
			{"", 1, 1.0},
			{"ok", "-2", "=1"}, // a string in a number column is text
		},
	}
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "name,n,ms\n" +
		"\"'=HYPERLINK(\"\"http://x\"\")\",-3,-1.5\n" +
		"'+1,0,\n" +
		"'-1,2,0.25\n" +
		"'@SUM(A1),1,1\n" +
		"'\tx,1,1\n" +
		"\"'\rx\",1,1\n" +
		"plain=1,1,1\n" +
		",1,1\n" +
		"ok,'-2,'=1\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
