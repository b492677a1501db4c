package mcp

import (
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The types FieldType gives a select field (spec 3.3): a single-select
// enum (enum, or oneOf of consts) and a multi-select one (an array whose
// items are an enum or anyOf of consts).
const (
	FieldEnum     = "enum"
	FieldEnumList = "enum[]"
)

// FieldType returns the type a form property's subschema declares, as the
// ledger and events show it, with the options of a select field (the
// server's words, in wire order; nil otherwise):
//   - "string", "integer", ... for a plain type member;
//   - FieldEnum or FieldEnumList for a select field;
//   - a union joined by "|", such as "string|null", for a type array or an
//     anyOf / oneOf of typed subschemas (what Pydantic emits for an
//     optional field);
//   - FieldUnknown when the subschema is not an object or declares none.
func FieldType(sub []byte) (string, []string) {
	if len(sub) == 0 || sub[0] != '{' {
		return FieldUnknown, nil
	}
	typ := jsonraw.Member(sub, "type")
	if s, ok := jsonraw.String(typ); ok {
		if opts := options(sub); opts != nil && s == "string" {
			return FieldEnum, opts
		}
		if opts := options(jsonraw.Member(sub, "items")); opts != nil && s == "array" {
			return FieldEnumList, opts
		}
		return s, nil
	}
	if u := union(typ); u != "" {
		return u, nil
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		var types []string
		jsonraw.EachElement(jsonraw.Member(sub, k), func(v []byte) {
			t, _ := FieldType(v)
			types = append(types, t)
		})
		if len(types) > 0 && !slices.Contains(types, FieldUnknown) {
			return strings.Join(types, "|"), nil
		}
	}
	return FieldUnknown, nil
}

// union joins a type array's strings with "|"; "" when typ is not an
// array of strings.
func union(typ []byte) string {
	var types []string
	ok := jsonraw.EachElement(typ, func(v []byte) {
		s, isStr := jsonraw.String(v)
		if !isStr {
			s = FieldUnknown
		}
		types = append(types, s)
	})
	if !ok || len(types) == 0 || slices.Contains(types, FieldUnknown) {
		return ""
	}
	return strings.Join(types, "|")
}

// options returns a select subschema's option values: its enum strings,
// or the consts of its oneOf or anyOf; nil when it has none.
func options(sub []byte) []string {
	var out []string
	jsonraw.EachElement(jsonraw.Member(sub, "enum"), func(v []byte) {
		if s, ok := jsonraw.String(v); ok {
			out = append(out, s)
		}
	})
	for _, k := range []string{"oneOf", "anyOf"} {
		if out != nil {
			break
		}
		jsonraw.EachElement(jsonraw.Member(sub, k), func(v []byte) {
			if s, ok := jsonraw.String(jsonraw.Member(v, "const")); ok {
				out = append(out, s)
			}
		})
	}
	return out
}
