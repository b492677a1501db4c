package termtable

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"hello", 1, "…"},
		{"hello", 0, ""},
		{"東京都庁", 8, "東京都庁"},
		{"東京都庁", 7, "東京都…"},
		{"東京都庁", 6, "東京…"}, // 東京 is 4, … is 1: a third 都 would make 7
		{"東京都庁", 4, "東…"},
		{"ab東京", 4, "ab…"},
		{"e\u0301te\u0301", 3, "e\u0301te\u0301"},
		{"e\u0301te\u0301x", 3, "e\u0301t…"},
	}
	for _, tt := range tests {
		got := Cut(tt.in, tt.width)
		if got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
		if w := Width(got); w > max(tt.width, 0) {
			t.Errorf("Cut(%q, %d) is %d wide", tt.in, tt.width, w)
		}
	}
}

// sample is a table of every kind of column: a fixed id, a cuttable
// name, a message that is cut first but dropped late, a right-aligned
// number and a droppable path.
func sample() *Table {
	t := &Table{Columns: []Column{
		{Header: "ID"},
		{Header: "NAME", Cut: true, Min: 6, Drop: 1},
		{Header: "STATUS"},
		{Header: "N", Align: Right, Drop: 3},
		{Header: "MESSAGE", Cut: true, Min: 10, Drop: 2},
		{Header: "PATH", Cut: true, Drop: 4},
	}}
	t.Add(Cell{Text: "a1"}, Cell{Text: "create_account"}, Cell{Text: "ok", Style: Good}, Cell{Text: "3"},
		Cell{Text: "Please pick a username for the new account"}, Cell{Text: "/tmp/a.jsonl"})
	t.Add(Cell{Text: "b2"}, Cell{Text: "東京"}, Cell{Text: "error", Style: Bad}, Cell{Text: "12"},
		Cell{Text: "x\x1b[31mred"}, Cell{Text: ""})
	return t
}

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		width int
		color bool
		want  []string
	}{
		{"unlimited", 0, false, []string{
			"ID  NAME            STATUS   N  MESSAGE                                     PATH",
			"a1  create_account  ok       3  Please pick a username for the new account  /tmp/a.jsonl",
			`b2  東京            error   12  x\x1b[31mred`,
		}},
		{"the widest is cut first", 85, false, []string{
			"ID  NAME            STATUS   N  MESSAGE                                  PATH",
			"a1  create_account  ok       3  Please pick a username for the new acc…  /tmp/a.jsonl",
			`b2  東京            error   12  x\x1b[31mred`,
		}},
		{"cut further", 70, false, []string{
			"ID  NAME            STATUS   N  MESSAGE                   PATH",
			"a1  create_account  ok       3  Please pick a username …  /tmp/a.jsonl",
			`b2  東京            error   12  x\x1b[31mred`,
		}},
		{"cut to one level", 56, false, []string{
			"ID  NAME          STATUS   N  MESSAGE       PATH",
			"a1  create_acco…  ok       3  Please pick…  /tmp/a.jsonl",
			`b2  東京          error   12  x\x1b[31mred`,
		}},
		{"the least useful dropped, the rest whole again", 42, false, []string{
			"ID  NAME          STATUS   N  MESSAGE",
			"a1  create_acco…  ok       3  Please pick…",
			`b2  東京          error   12  x\x1b[31mred`,
		}},
		{"cut to the Min", 36, false, []string{
			"ID  NAME      STATUS   N  MESSAGE",
			"a1  create_…  ok       3  Please pi…",
			`b2  東京      error   12  x\x1b[31m…`,
		}},
		{"dropped in Drop order", 20, false, []string{
			"ID  NAME      STATUS",
			"a1  create_…  ok",
			"b2  東京      error",
		}},
		{"too narrow for what never goes", 5, false, []string{
			"ID  STATUS",
			"a1  ok",
			"b2  error",
		}},
		{"colour", 0, true, []string{
			"\x1b[1mID\x1b[0m  \x1b[1mNAME\x1b[0m            \x1b[1mSTATUS\x1b[0m   \x1b[1mN\x1b[0m  \x1b[1mMESSAGE\x1b[0m                                     \x1b[1mPATH\x1b[0m",
			"a1  create_account  \x1b[32mok\x1b[0m       3  Please pick a username for the new account  /tmp/a.jsonl",
			`b2  東京            ` + "\x1b[31merror\x1b[0m" + `   12  x\x1b[31mred`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tab := sample()
			tab.Color = tt.color
			var b strings.Builder
			if err := tab.Render(&b, tt.width); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("width %d (-want +got):\n%s", tt.width, diff)
			}
		})
	}
}

func TestRenderOptions(t *testing.T) {
	t.Parallel()
	tab := &Table{Indent: "  ", Gap: 1, NoHeader: false, Columns: []Column{
		{Header: "TOOL"}, {Header: "CALLS", Align: Right, Width: 6}, {Header: "NOTE"},
	}}
	tab.AddText("a", "1", "")
	tab.Add(Cell{Text: `already \x1b`, Escaped: true}, Cell{Text: "22"}, Cell{Text: "two\nlines"})
	var b strings.Builder
	if err := tab.Render(&b, 0); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  TOOL          CALLS NOTE\n" +
		"  a                 1\n" +
		`  already \x1b     22 two\x0alines` + "\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLastResort: with every droppable column gone the table still does
// not fit, so cuttable columns are cut below their Min, down to 4.
func TestLastResort(t *testing.T) {
	t.Parallel()
	tab := &Table{Columns: []Column{
		{Header: "ROOT", Cut: true, Min: 32},
		{Header: "ACTION"},
		{Header: "MESSAGE", Cut: true, Min: 24},
		{Header: "ELAPSED", Drop: 1},
	}}
	tab.AddText("tools/call create_account (id 1)", "accept", "Choose a username and a contact email", "920.0ms")
	tests := []struct {
		width int
		want  string
	}{
		{80, "" + // the message is cut, the rest whole
			"ROOT                              ACTION  MESSAGE                        ELAPSED\n" +
			"tools/call create_account (id 1)  accept  Choose a username and a cont…  920.0ms\n"},
		{60, "" + // ELAPSED goes, then ROOT and MESSAGE are cut below their Min
			"ROOT                       ACTION  MESSAGE\n" +
			"tools/call create_accoun…  accept  Choose a username and a …\n"},
		{50, "" +
			"ROOT                  ACTION  MESSAGE\n" +
			"tools/call create_a…  accept  Choose a username a…\n"},
		{20, "" +
			"ROOT   ACTION  MESS…\n" +
			"tool…  accept  Choo…\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := tab.Render(&b, tt.width); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, b.String()); diff != "" {
			t.Errorf("width %d (-want +got):\n%s", tt.width, diff)
		}
	}
}

func TestStyles(t *testing.T) {
	t.Parallel()
	type pair struct {
		in   string
		want Style
	}
	check := func(name string, f func(string) Style, pairs []pair) {
		for _, p := range pairs {
			if got := f(p.in); got != p.want {
				t.Errorf("%s(%q) = %d, want %d", name, p.in, got, p.want)
			}
		}
	}
	check("Status", Status, []pair{{"ok", Good}, {"error", Bad}, {"tool-error", Bad}, {"http-error", Bad},
		{"pending", Warn}, {"cancelled", Warn}, {"input-required", Warn}, {"\x1b[31m", Plain}})
	check("Severity", Severity, []pair{{"error", Bad}, {"warning", Warn}, {"info", Note}, {"", Plain}})
	check("Action", Action, []pair{{"accept", Good}, {"decline", Bad}, {"cancel", Warn}, {"(pending)", Warn},
		{"(required)", Warn}, {"(error)", Bad}, {"(no action)", Plain}})
}

// TestElide: an Elide column that says nothing (one value in every row, or
// only "-") goes first when the table does not fit, and stays when it
// fits or when it says something.
func TestElide(t *testing.T) {
	t.Parallel()
	table := func() *Table {
		tb := &Table{Columns: []Column{
			{Header: "SERVER", Elide: true},
			{Header: "NAME", Cut: true, Min: NameMin},
			{Header: "WAIT", Elide: true},
			{Header: "HASH", Elide: true, Drop: 1},
		}}
		tb.AddText("demo-server", "a_rather_long_tool_name_to_read", "-", "0f0f0f0f0f0f")
		tb.AddText("demo-server", "another_tool", "", "1e1e1e1e1e1e")
		return tb
	}
	tests := []struct {
		width int
		want  string
	}{
		{0, "SERVER       NAME                             WAIT  HASH\ndemo-server  a_rather_long_tool_name_to_read  -     0f0f0f0f0f0f\ndemo-server  another_tool                           1e1e1e1e1e1e\n"},
		{50, "NAME                             HASH\na_rather_long_tool_name_to_read  0f0f0f0f0f0f\nanother_tool                     1e1e1e1e1e1e\n"},
		{30, "NAME\na_rather_long_tool_name_to_re…\nanother_tool\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := table().Render(&b, tt.width); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, b.String()); diff != "" {
			t.Errorf("width %d (-want +got):\n%s", tt.width, diff)
		}
	}
}
