package wire

import "github.com/mcptrail/mcptrail/internal/jsonraw"

// EachMember is jsonraw.EachMember, kept only for the store's callers that
// have not switched to jsonraw yet; new code calls jsonraw.
func EachMember(v []byte, fn func(name, val []byte) bool) bool { return jsonraw.EachMember(v, fn) }

// EachElement is jsonraw.EachElement, kept like EachMember.
func EachElement(v []byte, fn func(val []byte)) bool { return jsonraw.EachElement(v, fn) }
