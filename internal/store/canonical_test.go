package store

import (
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// canonCases are texts isCanonical must accept (true) or refuse.
var canonCases = []struct {
	in   string
	want bool
}{
	{`{}`, true},
	{`[]`, true},
	{`{"a":1,"b":[true,false,null,"x\"y\\z\n\t\r\b\f"],"c":{"d":-12,"e":0}}`, true},
	{"{\"text\":\"héllo \u2028\"}", true},
	{"{\"text\":\"h\u00e9llo\"}", true},
	{`{"b":1,"a":2}`, false},          // names out of order
	{`{"a":1,"a":2}`, false},          // duplicate names
	{`{"a": 1}`, false},               // whitespace
	{`{"a":1.0}`, false},              // a fraction
	{`{"a":1e3}`, false},              // an exponent
	{`{"a":-0}`, false},               // -0 is 0
	{`{"a":012}`, false},              // a leading zero
	{`{"a":1234567890123456}`, false}, // past 15 digits
	{`{"a":"\/"}`, false},             // an escape the encoder does not write
	{`{"a":"\u0041"}`, false},         // \u escapes are left to Canonicalize
	{`{"\n":1}`, false},               // an escaped name
	{`{"é":1}`, false},                // a non-ASCII name
	{`{"a":"x"`, false},               // torn
	{`{"a":1}x`, false},               // trailing bytes
	{`{"a":tru}`, false},
	{"{\"a\":\"\xff\"}", false}, // invalid UTF-8
}

func TestIsCanonical(t *testing.T) {
	for _, tc := range canonCases {
		if got := isCanonical([]byte(tc.in)); got != tc.want {
			t.Errorf("isCanonical(%s) = %v, want %v", tc.in, got, tc.want)
		}
		if tc.want && mcp.CanonicalArguments([]byte(tc.in)) != tc.in {
			t.Errorf("%s: accepted but Canonicalize changes it to %s", tc.in, mcp.CanonicalArguments([]byte(tc.in)))
		}
	}
}

// FuzzIsCanonical checks that what isCanonical accepts, Canonicalize
// leaves unchanged, so argsKey's shortcut gives the same key, and that
// appendArgsKey appends argsKey.
func FuzzIsCanonical(f *testing.F) {
	for _, tc := range canonCases {
		f.Add([]byte(tc.in))
		f.Add([]byte(`{"text":"` + strings.Repeat("x", 200) + `",` + tc.in[1:]))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := string(appendArgsKey([]byte("p"), b)), "p"+argsKey(b); got != want {
			t.Fatalf("appendArgsKey(%q) = %q, want %q", b, got, want)
		}
		if isCanonical(b) {
			if c := mcp.CanonicalArguments(b); c != string(b) {
				t.Fatalf("isCanonical(%q) but Canonicalize gives %q", b, c)
			}
		}
	})
}
