package filter

import (
	"testing"
	"time"
)

// TestQuoteShown: errors quote a value as the page's script does
// (JSON.stringify), so the TUI and the report name a bad term alike.
func TestQuoteShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`say "hi" \ ok`, `"say \"hi\" \\ ok"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\x7f\u00ad\u202e\u2028é😀", "\"\x7f\u00ad\u202e\u2028é😀\""},
		{"a\xffb", "\"a\ufffdb\""},
	} {
		if got := quoteShown(tc.in); got != tc.want {
			t.Errorf("quoteShown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestParseErrorQuoting: a value with a control or an unprintable rune is
// named in the error as JSON writes it (Go's %q wrote \x01 and \u00ad).
func TestParseErrorQuoting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"status:\"\x01\"", `status:"\u0001" at column 8: want one of ok, error, tool-error, input-required, pending, cancelled, late`},
		{"bogus\u00ad:x", "bogus\u00ad:\"x\" at column 1: unknown key \"bogus\u00ad\"; want one of tool, method, id, dir, status, era, elicit, rule, slow"},
	} {
		_, err := Parse(tc.in)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.in, err, tc.want)
		}
	}
}

// TestIDDecodedAsJSON: a string id matches its JSON value, escapes
// decoded as JSON decodes them (`"a\/b"` is a/b; Go unquoting refused it).
func TestIDDecodedAsJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw, filter string
		want        bool
	}{
		{`"a\/b"`, "id:a/b", true},
		{`"\u00e9t\u00e9"`, "id:été", true},
		{`"op-1"`, "id:op-1", true},
		{`"op-1"`, `id:"\"op-1\""`, true},
		{`"a\x41"`, "id:aA", false},
		{"7", "id:7", true},
		{"7", `id:"7"`, true},
		{`"7"`, "id:7", true},
		{"07", "id:7", false},
	} {
		f, err := Parse(tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(&Item{IDs: []string{tc.raw}, Duration: time.Second}); got != tc.want {
			t.Errorf("%s on id %s = %v, want %v", tc.filter, tc.raw, got, tc.want)
		}
	}
}
