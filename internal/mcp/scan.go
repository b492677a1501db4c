package mcp

import "github.com/mcptrail/mcptrail/internal/jsonraw"

// The parsers read only the members they need, with jsonraw's
// allocation-free scanner: parsing whole messages with reflection would
// cost more than the rest of the store together (see BenchmarkLoad200k).

// eachMember calls fn with the name (unquoted; nil when malformed) and raw
// value of each member of the JSON object v, in order, until fn returns
// false. It reports whether v was an object that could be scanned to its
// end.
func eachMember(v []byte, fn func(name, val []byte) bool) bool {
	return jsonraw.EachMember(v, func(name, val []byte) bool {
		n, _ := jsonraw.Unquote(nil, name)
		return fn(n, val)
	})
}

// isObject reports whether the raw value is a JSON object.
func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
