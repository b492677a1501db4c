package termtext

import (
	"strings"
	"testing"
)

// FuzzEscape checks, for any input, that the output of both functions
// holds no terminal control, bidi control or invalid UTF-8, that it
// decodes back to the input (so distinct inputs never look the same), that
// Append agrees with Escape, and that clean input comes back unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", hostile, `C:\x\u\\`, "\\\x1b", "a\\\n\tb", "\xe2\x80", "\u202e\u0085\x9b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, multiline := range []bool{false, true} {
			out := escape(s, multiline)
			checkSafe(t, out, multiline)
			if got := unescape(out); got != s {
				t.Fatalf("escape(%q, %v) = %q, which reads back as %q", s, multiline, out, got)
			}
			if clean(s, multiline) == len(s) && out != s {
				t.Fatalf("clean %q escaped as %q", s, out)
			}
			if multiline && !strings.ContainsAny(s, "\n\t") && out != Escape(s) {
				t.Fatalf("without newlines or tabs, EscapeMultiline(%q) = %q but Escape = %q", s, out, Escape(s))
			}
		}
		if got := string(Append([]byte("p"), s)); got != "p"+Escape(s) {
			t.Fatalf("Append(%q) = %q, want %q", s, got, "p"+Escape(s))
		}
	})
}
