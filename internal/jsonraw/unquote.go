package jsonraw

import (
	"bytes"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Unquote returns the contents of the JSON string literal s (quotes
// included), which comes from JSON already validated, like the walkers'
// input: when s holds no backslash the result aliases s (dst unused),
// otherwise the decoded contents are appended to dst (a caller may pass a
// stack buffer to decode short names without allocating). It reports false
// and returns nil when s is not quoted or an escape is malformed. On a
// literal nobody validated it never panics, but may pass raw control
// characters or invalid UTF-8 through: use UnquoteStrict there.
func Unquote(dst, s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil, false
	}
	inner := s[1 : len(s)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner, true
	}
	return appendUnquote(dst, s)
}

// UnquoteStrict is Unquote for bytes nobody validated: it accepts exactly
// the literals jsontext.AppendUnquote accepts (valid UTF-8, no raw control
// character or quote inside, well-formed escapes) and decodes them to the
// same bytes.
func UnquoteStrict(dst, s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil, false
	}
	inner := s[1 : len(s)-1]
	if plain(inner) {
		return inner, true
	}
	return appendUnquote(dst, s)
}

func appendUnquote(dst, s []byte) ([]byte, bool) {
	out, err := jsontext.AppendUnquote(dst, s)
	if err != nil {
		return nil, false
	}
	return out, true
}

// plain reports whether inner is a string's contents that need no
// decoding: valid UTF-8 without escapes, quotes or control characters.
func plain(inner []byte) bool {
	ascii := true
	for _, c := range inner {
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(inner)
}

// String returns the string the raw JSON value v (from validated JSON, as
// for Unquote) holds and whether v was a string literal.
func String(v []byte) (string, bool) {
	b, ok := Unquote(nil, v)
	if !ok {
		return "", false
	}
	return string(b), true
}

// Member returns the raw value of the first member of object v whose name,
// unquoted, is name, or nil when there is none (or v is not an object).
func Member(v []byte, name string) []byte {
	var out []byte
	var buf [32]byte
	EachMember(v, func(n, val []byte) bool {
		if got, ok := Unquote(buf[:0], n); ok && string(got) == name {
			out = val
			return false
		}
		return true
	})
	return out
}
