package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// The store reads only the members it needs, with wire's allocation-free
// scanner: parsing whole messages with reflection would cost more than the
// rest of the store together (see BenchmarkLoad200k).

// eachMember calls fn with the name (unquoted) and raw value of each member of
// the JSON object v, in order, until fn returns false. It reports whether v
// was an object that could be scanned to its end.
func eachMember(v []byte, fn func(name, val []byte) bool) bool {
	return wire.EachMember(v, func(name, val []byte) bool {
		return fn(unquoteBytes(name), val)
	})
}

// eachElement calls fn with each element of the JSON array v.
func eachElement(v []byte, fn func(val []byte)) bool { return wire.EachElement(v, fn) }

// unquoteBytes returns the contents of the JSON string s (quotes included),
// decoding escapes only when there are some. It returns nil when s is not a
// well-formed string.
func unquoteBytes(s []byte) []byte {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return nil
	}
	inner := s[1 : len(s)-1]
	for _, c := range inner {
		if c == '\\' {
			out, err := jsontext.AppendUnquote(nil, s)
			if err != nil {
				return nil
			}
			return out
		}
	}
	return inner
}

// stringValue returns the string a raw JSON value holds and whether it was
// a string at all.
func stringValue(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	b := unquoteBytes(v)
	if b == nil {
		return "", false
	}
	return string(b), true
}

// isObject reports whether the raw value is a JSON object.
func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
