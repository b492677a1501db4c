package mcp

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Destructiveness is what a tool's annotations say about whether calling
// it may destroy or overwrite something (MCP ToolAnnotations: readOnlyHint
// defaults to false; destructiveHint defaults to true and means something
// only when readOnlyHint is false).
type Destructiveness int

const (
	// DestructiveByDefault: neither readOnlyHint: true nor a boolean
	// destructiveHint (no annotations at all, or not an object): the
	// spec's default, so a client must assume the tool destructive.
	DestructiveByDefault Destructiveness = iota
	// DestructiveDeclared: destructiveHint: true, readOnlyHint not true.
	DestructiveDeclared
	// ReadOnly: readOnlyHint: true (destructiveHint is then ignored).
	ReadOnly
	// NotDestructive: destructiveHint: false, readOnlyHint not true (the
	// tool may write, but only additively).
	NotDestructive
)

// Destructive reports whether a client must treat a tool so annotated as
// destructive: every value but ReadOnly and NotDestructive.
func (d Destructiveness) Destructive() bool {
	return d == DestructiveByDefault || d == DestructiveDeclared
}

// String names d as the annotations state it.
func (d Destructiveness) String() string {
	switch d {
	case DestructiveDeclared:
		return "destructiveHint: true"
	case ReadOnly:
		return "readOnlyHint: true"
	case NotDestructive:
		return "destructiveHint: false"
	}
	return "no readOnlyHint: true or destructiveHint: false"
}

// ToolDestructiveness judges a tool by its raw annotations object (nil
// when the tool has none). It is the one answer to "is this tool
// destructive" for every view. A member given twice counts as its last
// value, as JSON.parse (and so every JavaScript client) reads it; names
// are case-sensitive and unescaped. A hint that is not a JSON boolean
// counts as absent, which errs toward destructive.
func ToolDestructiveness(annotations jsontext.Value) Destructiveness {
	readOnly, destructive := lastBool(annotations, "readOnlyHint"), lastBool(annotations, "destructiveHint")
	switch {
	case readOnly == "true":
		return ReadOnly
	case destructive == "true":
		return DestructiveDeclared
	case destructive == "false":
		return NotDestructive
	}
	return DestructiveByDefault
}

// lastBool returns "true" or "false" for the last member of object v
// named name when that member is a JSON boolean; "" otherwise (absent,
// another type, or v not an object).
func lastBool(v jsontext.Value, name string) string {
	out := ""
	var buf [32]byte
	eachMember := jsonraw.EachMember(v, func(n, val []byte) bool {
		if got, ok := jsonraw.Unquote(buf[:0], n); ok && string(got) == name {
			out = strings.TrimSpace(string(val))
		}
		return true
	})
	if !eachMember || (out != "true" && out != "false") {
		return ""
	}
	return out
}

// LastMembers returns the members of object v by name, each with its last
// value when a name repeats (as JSON.parse keeps it); nil when v is not an
// object. The values alias v.
func LastMembers(v jsontext.Value) map[string]jsontext.Value {
	out := map[string]jsontext.Value{}
	ok := jsonraw.EachMember(v, func(n, val []byte) bool {
		if name, ok := jsonraw.String(n); ok {
			out[name] = val
		}
		return true
	})
	if !ok {
		return nil
	}
	return out
}
