package ui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCell holds Cell to its contract on any text and width: no panic, at
// most width cells, and nothing that drives a terminal (controls, DEL, C1,
// bidi), however long the text and wherever the cut falls.
func FuzzCell(f *testing.F) {
	for _, s := range []string{"tools/call", "a\x1b[2Jb", "ab\u202ec", "a\x9bb", "日本語テキスト", "\xff\xfe"} {
		f.Add(s, 10, 3)
	}
	f.Fuzz(func(t *testing.T, s string, width, repeat int) {
		width, repeat = width%300, max(repeat%2000, 1)
		s = strings.Repeat(s, repeat)
		got := Cell(s, width)
		if w := Width(got); w > max(width, 0) {
			t.Fatalf("Cell(%.40q, %d) is %d cells wide", s, width, w)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Cell(%.40q, %d) = %q is not UTF-8", s, width, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x61c || r == 0x200e || r == 0x200f ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Fatalf("Cell(%.40q, %d) = %q holds %U", s, width, got, r)
			}
		}
	})
}
