package capture

import (
	"bytes"
	"encoding/binary"
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
		// UTF-8, in and out of strings, at and away from the SWAR lanes.
		"[\"\xff\"]", "[\"\xc3\"]", "[\"\xc3\xa9\"]", "[\"\xed\xa0\x80\"]", "[\"\xe2\x82\xac\"]", "[\"\xf0\x9f\x98\x80\"]",
		"[\"\xf4\x90\x80\x80\"]", "[\"\xc0\xaf\"]", "[\"\xe0\x80\xaf\"]", "[\"\xef\xbf\xbd\"]", "[\xff]", "\xef\xbb\xbf{}",
		"{\"abcdefgh\xff\":1}", "{\"abcdefghijklmnop\":\"abcdefg\xe2\x82\"}", "[\"abcdefg\x00\"]", "[\"abcdefg\x1f\"]", "[\"abcdefg\x7f\"]",
		`["abcdefghijklmnopqrstuvwxyz"]`, `["abcdefghijklmnopqrstuvwxy\"z"]`, `["abcdefghijklmnopqrstuvw\u00e9xyz"]`, `["abcdefghijklmnop`,
		`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`,
		`{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0"`, `{"jsonrpc":"2.0",}`, `{"jsonrpc":"2.0"]`, `{"jsonrpc":"2.0" } `,
		`{"jsonrpc":"2.0"x`, `{"jsonrpc":"2.0","id":1}}`, `{"jsonrpc":"2.0","id":[1}`, `{"jsonrpc":"2.0","a":{"b":[]}}`,
		`[fals]`, `[false]`, `[nulll]`, `[-01]`, `[1.5e+]`, `[1e0]`, "[1]\x00", "\x00[1]", "[\v1]", "[\f1]",
	}
}

func TestValidJSON(t *testing.T) {
	t.Parallel()
	if rpcPrefix0 != binary.LittleEndian.Uint64([]byte(rpcPrefix)) || rpcPrefix1 != binary.LittleEndian.Uint64([]byte(rpcPrefix[8:])) {
		t.Fatalf("rpcPrefix words do not spell %s", rpcPrefix)
	}
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
		want := jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true))
		got := validJSON(b)
		if got != want {
			t.Errorf("validJSON(%q) = %v, jsontext says %v", b, got, want)
		}
		if got && !utf8.Valid(b) {
			t.Errorf("validJSON(%q) accepted invalid UTF-8", b)
		}
		if ok, spaced := scanJSON(b); ok != got || ok && !spaced && bytes.ContainsAny(b, " \t\r\n") && !bytes.ContainsRune(b, '"') {
			t.Errorf("scanJSON(%q) = %v, %v", b, ok, spaced)
		}
		if ok, spaced := scanJSON(b); ok && !spaced && bytes.IndexByte(b, '\n') >= 0 {
			t.Errorf("scanJSON(%q) missed a newline", b)
		}
	})
}
