package jsonraw

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzUnquote holds UnquoteStrict to jsontext.AppendUnquote on any input
// (the same verdict and, when it accepts, the same bytes), and Unquote to
// it on every valid string token; neither may panic or touch its input.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{
		`"plain"`, `""`, `"a\"b"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", "\"\x01\"",
		`"a"b"`, `"a\"`, `"`, ``, `x`, `"héllo"`, `"\/\b\f\n\r\t"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		got, ok := UnquoteStrict(make([]byte, 0, 4), in)
		trusted, tok := Unquote(make([]byte, 0, 4), in)
		if !bytes.Equal(in, orig) {
			t.Fatalf("Unquote modified its input")
		}
		want, err := jsontext.AppendUnquote(nil, in)
		if ok != (err == nil) {
			t.Fatalf("UnquoteStrict(%q) ok = %v, jsontext err = %v", in, ok, err)
		}
		if ok && !bytes.Equal(got, want) {
			t.Fatalf("UnquoteStrict(%q) = %q, jsontext %q", in, got, want)
		}
		if (!ok && got != nil) || (!tok && trusted != nil) {
			t.Fatalf("Unquote(%q) failed but returned %q / %q", in, got, trusted)
		}
		if ok && (!tok || !bytes.Equal(trusted, want)) {
			t.Fatalf("Unquote(%q) = %q, %v on a valid token; jsontext %q", in, trusted, tok, want)
		}
	})
}

// FuzzEachMember checks the walkers never panic on any input and, on valid
// JSON, yield exactly the top-level names and values jsontext's decoder
// finds.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[1,{"c":"}"}],"d\"e":"\\"}`, `[1,"a",{"b":null},[]]`, `{}`, `[]`,
		` { "a" : true } `, `{"a":1,"a":2}`, `{"a":`, `["a`, `"a"`, `1`, `{"a":1}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var got []string
		okM := EachMember(in, func(n, v []byte) bool {
			got = append(got, string(n), string(v))
			return true
		})
		var els []string
		okE := EachElement(in, func(v []byte) { els = append(els, string(v)) })
		Member(in, "a")
		if !jsontext.Value(in).IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		kind := jsontext.Value(in).Kind()
		if okM != (kind == '{') || okE != (kind == '[') {
			t.Fatalf("%q (kind %c): EachMember ok %v, EachElement ok %v", in, kind, okM, okE)
		}
		want := topLevel(t, in)
		if kind == '[' {
			got = els
		}
		if kind == '{' || kind == '[' {
			if len(got) != len(want) {
				t.Fatalf("%q: walked %q, jsontext %q", in, got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%q: walked %q, jsontext %q", in, got, want)
				}
			}
		}
	})
}

// topLevel returns the raw names and values (objects) or elements (arrays)
// of a valid JSON value, as jsontext's decoder reads them.
func topLevel(t *testing.T, in []byte) []string {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewReader(in), jsontext.AllowDuplicateNames(true))
	open, err := dec.ReadToken()
	if err != nil {
		t.Fatal(err)
	}
	if k := open.Kind(); k != '{' && k != '[' {
		return nil
	}
	var out []string
	for dec.PeekKind() != '}' && dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(bytes.TrimSpace(v)))
	}
	return out
}

// FuzzContainsAt holds ContainsAt to bytes.Contains for any text, pattern
// and key byte.
func FuzzContainsAt(f *testing.F) {
	f.Add([]byte(`{"inputResponses":{}}`), `"inputResponses"`, 6)
	f.Add([]byte(`{"type":"session"}`), `"session"`, 6)
	f.Add([]byte(`oooo"sessio"session`), `"session"`, 6)
	f.Add([]byte(`aaa`), `aa`, 1)
	f.Fuzz(func(t *testing.T, b []byte, pat string, k int) {
		if len(pat) == 0 {
			return
		}
		k = int(uint(k) % uint(len(pat)))
		if got, want := ContainsAt(b, pat, k), bytes.Contains(b, []byte(pat)); got != want {
			t.Fatalf("ContainsAt(%q, %q, %d) = %v, bytes.Contains says %v", b, pat, k, got, want)
		}
	})
}
