package ui

import (
	"strings"
	"testing"
)

func TestCell(t *testing.T) {
	huge := strings.Repeat("\x1b]0;pwned\a", 100_000)
	tests := []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"plain", "tools/call", 20, "tools/call"},
		{"cut", "tools/call", 6, "tools…"},
		{"zero width", "x", 0, ""},
		{"escape", "a\x1b[2Jb", 20, `a\x1b[2Jb`},
		{"bidi", "ab\u202ec", 20, `ab\u202ec`},
		{"invalid utf8", "a\x9bb", 20, `a\x9bb`},
		{"huge hostile", huge, 12, `\x1b]0;pwne…`},
		{"wide runes", "日本語テキスト", 7, "日本語…"},
		{"long three-byte runes", strings.Repeat("日", 200), 20, strings.Repeat("日", 9) + "…"},
		{"long bidi", strings.Repeat("\u202e", 200), 13, `\u202e\u202e…`},
		{"long invalid bytes", strings.Repeat("\xff", 200), 9, `\xff\xff…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Cell(tt.in, tt.width)
			if got != tt.want {
				t.Errorf("Cell(%.20q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
			}
			if w := Width(got); w > tt.width {
				t.Errorf("Cell(%.20q, %d) is %d cells wide", tt.in, tt.width, w)
			}
		})
	}
}

func TestPad(t *testing.T) {
	for _, tt := range []struct {
		in    string
		width int
		want  string
	}{
		{"ab", 4, "ab  "},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"ab", 0, ""},
	} {
		if got := Pad(tt.in, tt.width); got != tt.want {
			t.Errorf("Pad(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 41200: "41,200", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
