package termtext

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// hostile holds every sequence the escaping must defuse (testbin.Evil).
const hostile = testbin.Evil

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, multiline string
	}{
		{name: "plain", in: "get_weather v1.2 (ok)", want: "get_weather v1.2 (ok)", multiline: "get_weather v1.2 (ok)"},
		{name: "empty", in: "", want: "", multiline: ""},
		{name: "non-ASCII text", in: "café → 東京 🙂", want: "café → 東京 🙂", multiline: "café → 東京 🙂"},
		{name: "windows path", in: `C:\Users\dev\a.jsonl`, want: `C:\Users\dev\a.jsonl`, multiline: `C:\Users\dev\a.jsonl`},
		{name: "backslash x without hex", in: `C:\xavier\uwe\x1`, want: `C:\xavier\uwe\x1`, multiline: `C:\xavier\uwe\x1`},
		{name: "backslash u and four hex", in: `a\uBEEF`, want: `a\\uBEEF`, multiline: `a\\uBEEF`},
		{name: "clear screen", in: "\x1b[2J\x1b[H", want: `\x1b[2J\x1b[H`, multiline: `\x1b[2J\x1b[H`},
		{name: "title", in: "\x1b]0;pwned\x07", want: `\x1b]0;pwned\x07`, multiline: `\x1b]0;pwned\x07`},
		{
			name: "OSC 8 link", in: "\x1b]8;;http://evil\x1b\\x\x1b]8;;\x1b\\",
			want:      `\x1b]8;;http://evil\x1b\x\x1b]8;;\x1b\`,
			multiline: `\x1b]8;;http://evil\x1b\x\x1b]8;;\x1b\`,
		},
		{name: "newline and tab", in: "a\nb\tc\r", want: `a\x0ab\x09c\x0d`, multiline: "a\nb\tc\\x0d"},
		{name: "DEL and NUL", in: "\x7f\x00", want: `\x7f\x00`, multiline: `\x7f\x00`},
		{name: "C1 code points", in: "\u0080\u0085\u009b\u009f", want: `\u0080\u0085\u009b\u009f`, multiline: `\u0080\u0085\u009b\u009f`},
		{name: "invalid bytes", in: "a\x9bb\xff\xc3", want: `a\x9bb\xff\xc3`, multiline: `a\x9bb\xff\xc3`},
		{
			name: "bidi", in: "\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069i\u200ej\u200fk\u061cl",
			want:      `\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069i\u200ej\u200fk\u061cl`,
			multiline: `\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069i\u200ej\u200fk\u061cl`,
		},
		{name: "U+00A0 and U+2028 kept", in: "a\u00a0b", want: "a\u00a0b", multiline: "a\u00a0b"},
		{name: "backslash before x", in: `\x1b`, want: `\\x1b`, multiline: `\\x1b`},
		{name: "backslash before u", in: `\u202e`, want: `\\u202e`, multiline: `\\u202e`},
		{name: "two backslashes", in: `a\\b`, want: `a\\\b`, multiline: `a\\\b`},
		{name: "backslash then ESC", in: "\\\x1b", want: `\\\x1b`, multiline: `\\\x1b`},
		{name: "backslash then newline", in: "\\\n", want: `\\\x0a`, multiline: "\\\n"},
		{name: "trailing backslash", in: `a\`, want: `a\`, multiline: `a\`},
		{name: "replacement character kept", in: "\ufffd", want: "\ufffd", multiline: "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, Escape(tt.in)); diff != "" {
				t.Errorf("Escape(%q) (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.multiline, EscapeMultiline(tt.in)); diff != "" {
				t.Errorf("EscapeMultiline(%q) (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.want, string(Append([]byte(nil), tt.in))); diff != "" {
				t.Errorf("Append(%q) (-want +got):\n%s", tt.in, diff)
			}
			for _, out := range []string{Escape(tt.in), EscapeMultiline(tt.in)} {
				if got := unescape(out); got != tt.in {
					t.Errorf("unescape(%q) = %q, want %q", out, got, tt.in)
				}
			}
		})
	}
}

func TestEscapeHostile(t *testing.T) {
	t.Parallel()
	checkSafe(t, Escape(hostile), false)
	checkSafe(t, EscapeMultiline(hostile), true)
}

func TestEscapeCleanDoesNotAllocate(t *testing.T) {
	s := strings.Repeat(`tools/call get_weather C:\dir café 東京 `, 10)
	block := s + "\n\t" + s
	n := testing.AllocsPerRun(100, func() {
		if Escape(s) != s || EscapeMultiline(block) != block {
			t.Fatal("clean text changed")
		}
	})
	if n != 0 {
		t.Errorf("Escape of clean text allocates %v times, want 0", n)
	}
}

// checkSafe fails t when out holds anything Escape must remove: a byte
// below 0x20 (other than newline and tab when multiline), a code point
// from 0x7f to 0x9f, a bidi control or invalid UTF-8.
func checkSafe(t *testing.T, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("output %q is not valid UTF-8", out)
	}
	for i, r := range out {
		bad := r < 0x20 || (r >= 0x7f && r <= 0x9f) || isBidi(r)
		if multiline && (r == '\n' || r == '\t') {
			bad = false
		}
		if bad {
			t.Errorf("output %q holds %U at byte %d", out, r, i)
		}
	}
}

// unescape inverts Escape and EscapeMultiline: it proves that two
// different strings are never shown the same. A backslash that starts no
// escape stands for itself.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case s[i+1] == '\\':
			b.WriteByte('\\')
			i++
		case s[i+1] == 'x' && hexRun(s[i+2:], 2):
			v, _ := strconv.ParseUint(s[i+2:i+4], 16, 8)
			b.WriteByte(byte(v))
			i += 3
		case s[i+1] == 'u' && hexRun(s[i+2:], 4):
			v, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
			b.WriteRune(rune(v))
			i += 5
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}
