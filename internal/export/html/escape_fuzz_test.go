package htmlexport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzScriptWriter writes any string, quoted as the page's data quotes it,
// through a scriptWriter in chunks cut anywhere (mid-character included):
// the output never holds a character that could close or change the script
// element or reorder the text around it, and it decodes back to the string
// (with each invalid UTF-8 byte read as U+FFFD, as appendQuote keeps it).
func FuzzScriptWriter(f *testing.F) {
	for _, s := range []string{"", "</script><img src=x onerror=alert(1)>", "a\u2028b\u2029c",
		"\u202e<!--\u2066&amp;", "\"\\\n\t\x00\x1f\x7f\u0085", "a\xe2\x80", "\xff\xfe"} {
		f.Add(s, uint8(1))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, chunk uint8) {
		quoted := appendQuote(nil, s)
		var out bytes.Buffer
		sw := newScriptWriter(&out)
		n := max(int(chunk), 1)
		for p := quoted; len(p) > 0; {
			k := min(n, len(p))
			if w, err := sw.Write(p[:k]); err != nil || w != k {
				t.Fatalf("Write of %d bytes: %d, %v", k, w, err)
			}
			p = p[k:]
		}
		if err := sw.Flush(); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if !utf8.ValidString(got) {
			t.Fatalf("output is not UTF-8: %q", got)
		}
		for _, r := range got {
			if r == '<' || r == '>' || r == '&' || unsafeRune(r) || r == 0x7f {
				t.Fatalf("output holds %U: %q", r, got)
			}
		}
		var back string
		if err := json.Unmarshal(out.Bytes(), &back); err != nil {
			t.Fatalf("output %q is not a JSON string: %v", got, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); back != want && back != validRunes(s) {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
	})
}

// validRunes is s with every invalid byte (not every invalid run) read as
// U+FFFD, as a decoder going rune by rune reads it.
func validRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}
