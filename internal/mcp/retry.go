package mcp

import (
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// CanonicalArguments returns a tools/call or prompts/get arguments value in
// RFC 8785 canonical form, so that two arguments compare equal as JSON
// values whatever their key order and whitespace (spec 2.7 step 3). Absent
// arguments and an empty object are the same empty map and both give "{}".
// A value that cannot be canonicalised (duplicate names) is returned as is.
func CanonicalArguments(v jsontext.Value) string {
	if len(v) == 0 {
		return "{}"
	}
	c := slices.Clone(v)
	if err := c.Canonicalize(); err != nil {
		return string(v)
	}
	return string(c)
}

// Covers reports whether the inputResponses keys (sorted) include every key
// of a round's inputRequests (spec 2.7 step 3: extra keys are allowed).
func Covers(responseKeys []string, requests []InputRequest) bool {
	for _, ir := range requests {
		if _, found := slices.BinarySearch(responseKeys, ir.Key); !found {
			return false
		}
	}
	return true
}
