package termtable

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRender checks, for any cell text and width, that every line fits
// the width (these columns can always be cut to fit 6), that nothing but
// the line ends is a control character or invalid UTF-8 with colour off,
// that each row is one line, and that an uncut table shows every cell
// whole.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "plain", "東京都庁", "e\u0301\u200d👩‍👩‍👧", "x\x1b[31m\n\t\u202e\xff", strings.Repeat("wide 🙂 ", 20)} {
		f.Add(s, "other", 10)
	}
	f.Fuzz(func(t *testing.T, a, b string, width int) {
		width = width%200 + 6
		if width < 6 {
			width = -width + 12
		}
		tab := &Table{Indent: " ", Columns: []Column{
			{Header: "A", Cut: true, Min: 1},
			{Header: "B", Cut: true, Min: 1, Drop: 1},
		}}
		tab.Add(Cell{Text: a}, Cell{Text: b})
		tab.Add(Cell{Text: b, Style: Bad}, Cell{Text: a, Style: Good})
		var out strings.Builder
		if err := tab.Render(&out, width); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
		}
		for _, l := range lines {
			if w := Width(l); w > width {
				t.Errorf("line %q is %d wide, more than %d", l, w, width)
			}
			if !utf8.ValidString(l) || strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }) {
				t.Errorf("line %q holds a control character or invalid UTF-8", l)
			}
		}
		var wide strings.Builder
		if err := tab.Render(&wide, 0); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(wide.String(), ellipsis) && !strings.Contains(a+b, ellipsis) {
			t.Errorf("an uncut table holds %q:\n%s", ellipsis, wide.String())
		}
	})
}
