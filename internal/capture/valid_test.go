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
		if ok, spaced, _ := scanJSON(b, nil); ok != got || ok && !spaced && bytes.ContainsAny(b, " \t\r\n") && !bytes.ContainsRune(b, '"') {
			t.Errorf("scanJSON(%q) = %v, %v", b, ok, spaced)
		}
		if ok, spaced, _ := scanJSON(b, nil); ok && !spaced && bytes.IndexByte(b, '\n') >= 0 {
			t.Errorf("scanJSON(%q) missed a newline", b)
		}
		if got {
			f := testFilter()
			_, _, hit := scanJSON(b, f)
			if want := filterHit(t, b); hit != want {
				t.Errorf("scanJSON(%q) selected a name = %v, want %v", b, hit, want)
			}
		}
	})
}

// testNames are the names of testFilter: of lengths the filter masks and
// not, the name the rpcPrefix skip passes over, one of one byte.
func testNames() []string {
	return []string{"a", "token", "api_key", "jsonrpc", "content", strings.Repeat("k", maxMasked+3)}
}

// testFilter selects testNames, ignoring ASCII case.
func testFilter() *NameFilter {
	return NewNameFilter(testNames(), func(name []byte) bool {
		for _, n := range testNames() {
			if strings.EqualFold(n, string(name)) && isASCII(name) {
				return true
			}
		}
		return false
	})
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// filterHit is what scanJSON(b, testFilter()) should report for valid b:
// whether a member name is spelled with an escape or a byte beyond ASCII,
// or is one of testNames ignoring ASCII case.
func filterHit(t *testing.T, b []byte) bool {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	hit, err := namesHit(dec)
	if err != nil {
		t.Fatalf("decoding %q: %v", b, err)
	}
	return hit
}

// namesHit walks the next value of dec for filterHit.
func namesHit(dec *jsontext.Decoder) (bool, error) {
	hit := false
	switch dec.PeekKind() {
	case '{', '[':
		open, err := dec.ReadToken()
		if err != nil {
			return false, err
		}
		for dec.PeekKind() != open.Kind()+2 {
			if open.Kind() == '{' {
				raw, err := dec.ReadValue()
				if err != nil {
					return false, err
				}
				name := raw[1 : len(raw)-1]
				hit = hit || bytes.IndexByte(name, '\\') >= 0 || !isASCII(name) || testFilter().match(name)
			}
			h, err := namesHit(dec)
			if err != nil {
				return false, err
			}
			hit = hit || h
		}
		_, err = dec.ReadToken()
		return hit, err
	}
	_, err := dec.ReadValue()
	return false, err
}

func TestNameFilter(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("K", maxMasked+3)
	for _, tt := range []struct {
		json string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"y"}}`, true}, // jsonrpc is a test name
		{`{"id":1,"method":"x","params":{"name":"y","arguments":{"text":"hi"}}}`, false},
		{`{"id":1,"params":{"arguments":{"TOKEN":"s"}}}`, true},
		{`{"id":1,"params":{"arguments":{"tokens":"s","toke":"s","Api_Key":1}}}`, true},
		{`{"x":["token","api_key",{"A":1}]}`, true},
		{`{"x":["token","api_key",{"b":1}]}`, false},
		{`{"tok\u0065n":1}`, true},
		{`{"tok\u00e9n":1}`, true},
		{`{"t\u00e9":1}`, true},
		{`{"é":1}`, true},
		{`{"` + long + `":1}`, true},
		{`{"` + long + `x":1}`, false},
		{`{"":1,"ab":2,"tokem":3,"aoken":4}`, false},
		{`{"a" : 1}`, true},
		{` [ {"a":1} ] `, true},
	} {
		t.Run(tt.json, func(t *testing.T) {
			t.Parallel()
			b := bytes.TrimSpace([]byte(tt.json))
			ok, _, hit := scanJSON(b, testFilter())
			if !ok {
				t.Fatalf("scanJSON(%s) says invalid", b)
			}
			if hit != tt.want {
				t.Errorf("hit = %v, want %v", hit, tt.want)
			}
			if ref := filterHit(t, b); ref != tt.want {
				t.Errorf("reference hit = %v, want %v", ref, tt.want)
			}
		})
	}
}

// TestTailFilter: a tail filter passes a name of any length that ends in
// a tail's last byte and leaves the last word to its match function; a
// name past 63 bytes is selected unread, by the validating scan and by a
// spool alike.
func TestTailFilter(t *testing.T) {
	t.Parallel()
	f := NewTailFilter([]string{"token", "key"}, func(name []byte) bool {
		n := strings.ToLower(string(name))
		return n == "token" || strings.HasSuffix(n, "_token") || strings.HasSuffix(n, "_key")
	})
	long := strings.Repeat("x", maxMasked)
	for _, tt := range []struct {
		json string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"name":"y"}}`, false},
		{`{"id":1,"params":{"arguments":{"GITHUB_TOKEN":"s"}}}`, true},
		{`{"id":1,"params":{"arguments":{"a_very_long_prefix_before_the_words_that_matter_api_key":1}}}`, true},
		{`{"id":1,"params":{"arguments":{"max_tokens":1,"monkey":2,"key":3}}}`, false},
		{`{"` + long + `":1}`, true},
		{`{"` + long[:maxMasked-1] + `":1}`, false},
		{`{"":1}`, false},
	} {
		b := []byte(tt.json)
		ok, _, hit := scanJSON(b, f)
		if !ok || hit != tt.want {
			t.Errorf("scanJSON(%s) = valid %v, hit %v; want hit %v", b, ok, hit, tt.want)
		}
		sp, err := NewSpool(t.TempDir(), TypeFrame, f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sp.Write(b); err != nil {
			t.Fatal(err)
		}
		if got := sp.Selected(); got != tt.want {
			t.Errorf("spool of %s: selected %v, want %v", b, got, tt.want)
		}
		if err := sp.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestValidJSONLongStrings puts each kind of byte that does not stand for
// itself in a string at every offset of a long plain run, where scanJSON
// skips 8 and then 32 bytes at a time, and holds it to jsontext's answer.
func TestValidJSONLongStrings(t *testing.T) {
	specials := []string{`"`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, `\x`, "\x1f", "\x7f", "é", "\xe9", "\xf0\x9f\x98", "😀", "\u2028"}
	for _, sp := range specials {
		for at := 0; at < 90; at++ {
			for _, tail := range []int{0, 1, 7, 8, 31, 32, 33, 70} {
				body := strings.Repeat("a", at) + sp + strings.Repeat("b", tail)
				for _, b := range [][]byte{
					[]byte(`{"jsonrpc":"2.0","params":{"pad":"` + body + `"}}`),
					[]byte(`["` + body + `"]`),
					[]byte(`{"` + body + `":1}`),
				} {
					want := jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true))
					if got := validJSON(b); got != want {
						t.Fatalf("validJSON(%q) = %v, jsontext says %v", b, got, want)
					}
				}
			}
		}
	}
}
