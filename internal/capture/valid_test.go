package capture

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// validSeeds are hand-picked edge cases for validJSON.
func validSeeds() []string {
	return []string{
		`{}`, `[]`, `{"a":1}`, `{"a":1,"a":2}`, `[1,2,3]`, `[1,]`, `{"a"}`, `{"a":}`, `{,}`, `[,1]`,
		`["\ud800"]`, `["\udc00"]`, `["\ud800\udc00"]`, `["\ud800x"]`, `["\ud800\u0041"]`, `["\uDBFF\uDFFF"]`,
		`["\u00e9\n\t\/\\\"\b\f\r"]`, `["\x"]`, `["\u12"]`, "[\"\x01\"]", "[\"\x7f\"]", `["é"]`,
		`[1.]`, `[01]`, `[-0]`, `[-]`, `[1e5]`, `[1E+5]`, `[1e]`, `[.5]`, `[0.5e-3]`, `[-12.34E+56]`, `[+1]`,
		`[true,false,null]`, `[truex]`, `[true false]`, `[tru]`, `[nul]`, `[True]`,
		` { "a" : [ 1 , { } ] } `, "{\n\"a\"\r:\t1}", `{"a":1}}`, `{"a":1}{}`, `[[]]]`, `[`, `{`, `"str"`, `1`, ``, ` `,
		`{"a":[{"b":{"c":[1,2,{"d":null}]}}]}`, `{"":""}`, `{1:2}`, `{"a" 1}`, `[1 2]`, `["a":1]`,
		strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
		strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
		strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth),
		strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1),
		strings.Repeat("[", maxDepth-1) + "{}" + strings.Repeat("]", maxDepth-1),
		strings.Repeat("[", maxDepth) + "{}" + strings.Repeat("]", maxDepth),
	}
}

func TestValidJSON(t *testing.T) {
	t.Parallel()
	for _, s := range validSeeds() {
		want := jsontext.Value(s).IsValid(jsontext.AllowDuplicateNames(true))
		if got := validJSON([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, jsontext says %v", s, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds() {
		if len(s) < 1000 {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return // the writer checks UTF-8 first
		}
		want := jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true))
		if got := validJSON(b); got != want {
			t.Errorf("validJSON(%q) = %v, jsontext says %v", b, got, want)
		}
	})
}

func BenchmarkValidJSON(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)
	b.Run("validJSON", func(b *testing.B) {
		for b.Loop() {
			validJSON(line)
		}
	})
	b.Run("jsontext", func(b *testing.B) {
		for b.Loop() {
			jsontext.Value(line).IsValid(jsontext.AllowDuplicateNames(true))
		}
	})
}
