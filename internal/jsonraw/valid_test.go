package jsonraw

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// validCases are containers ValidEnd must accept (want is the end) or
// leave to jsontext (-1).
var validCases = []struct {
	in   string
	want int
}{
	{`{}`, 2},
	{`[]x`, 2},
	{` {}`, -1}, // not at a container
	{`"s"`, -1},
	{`{"a":1,"a":2}`, 13}, // duplicate names are allowed
	{`{ "a" : [ 1 , -0.5e+3 , true , false , null , "x\"\\\/\b\f\n\r\tyé\u00e9" ] }`, 78},
	{`{"a":"0123456789abcdefghijklmnopqrstuvwxyz"}`, 44},
	{`{"a":"\ud83d\ude00"}`, -1}, // surrogates are left to jsontext
	{`{"a":01}`, -1},
	{`{"a":1.}`, -1},
	{`{"a":-}`, -1},
	{`{"a":1e}`, -1},
	{`{"a" 1}`, -1},
	{`{"a":1,}`, -1},
	{`[1,]`, -1},
	{`{"a":tru}`, -1},
	{`{"a":"x` + "\x01" + `"}`, -1},
	{`{"a":"` + "\xff" + `"}`, -1},
	{`{"a":"\x"}`, -1},
	{`{"a":"\u12g4"}`, -1},
	{`{"a":"unterminated}`, -1},
	{`[[[[`, -1},
}

func TestValidEnd(t *testing.T) {
	for _, tc := range validCases {
		if got := ValidEnd([]byte(tc.in), 0); got != tc.want {
			t.Errorf("ValidEnd(%s) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// FuzzValidEnd holds ValidEnd to jsontext: what it accepts up to end,
// jsontext accepts as one value with duplicate names allowed, and a
// container ending there.
func FuzzValidEnd(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end := ValidEnd(b, 0)
		if end < 0 {
			return
		}
		v := jsontext.Value(b[:end])
		if !v.IsValid(jsontext.AllowDuplicateNames(true)) {
			t.Fatalf("ValidEnd(%q) = %d, but jsontext refuses %q", b, end, v)
		}
		if last := b[end-1]; last != '}' && last != ']' {
			t.Fatalf("ValidEnd(%q) = %d, not the end of a container", b, end)
		}
	})
}
