package jsonraw

import (
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Unquote returns the contents of the JSON string literal s (quotes
// included) and whether s was exactly one well-formed literal: it accepts
// what jsontext.AppendUnquote accepts and decodes to the same bytes. When s
// holds no escape the result aliases s and dst is unused; otherwise the
// decoded contents are appended to dst (a caller may pass a stack buffer to
// decode short names without allocating). On failure it returns nil, false.
func Unquote(dst, s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil, false
	}
	inner := s[1 : len(s)-1]
	if plain(inner) {
		return inner, true
	}
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

// String returns the string the raw JSON value v holds and whether v was a
// well-formed string literal.
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
