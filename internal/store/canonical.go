package store

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// isCanonical reports whether raw is a JSON value already in the RFC 8785
// form jsontext.Value.Canonicalize produces, so that argsKey can skip
// canonicalising it (which costs several times the scan). It is
// conservative: it accepts only a subset of canonical texts whose
// canonical form is certainly themselves (no whitespace; object names of
// printable ASCII without escapes, strictly ascending; strings of valid
// UTF-8 whose only escapes are the short ones the encoder writes;
// integers of at most 15 digits, which a double holds exactly, without
// -0; nesting at most maxCanonDepth deep) and reports false for
// everything else, canonical or not. FuzzIsCanonical checks that what it
// accepts, Canonicalize leaves unchanged.
func isCanonical(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	end := canonValue(raw, 0, 0)
	return end == len(raw)
}

// maxCanonDepth bounds the nesting isCanonical follows.
const maxCanonDepth = 64

// canonValue returns the index after the canonical value starting at
// b[i], or -1.
func canonValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '{':
		return canonObject(b, i, depth+1)
	case c == '[':
		return canonArray(b, i, depth+1)
	case c == '"':
		return canonString(b, i)
	case c == '-' || ('0' <= c && c <= '9'):
		return canonInt(b, i)
	case bytes.HasPrefix(b[i:], []byte("true")), bytes.HasPrefix(b[i:], []byte("null")):
		return i + 4
	case bytes.HasPrefix(b[i:], []byte("false")):
		return i + 5
	}
	return -1
}

func canonObject(b []byte, i, depth int) int {
	if depth > maxCanonDepth {
		return -1
	}
	i++ // {
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	var prev []byte
	for first := true; ; first = false {
		name, end := canonName(b, i)
		if name == nil || (!first && bytes.Compare(prev, name) >= 0) || end >= len(b) || b[end] != ':' {
			return -1
		}
		prev = name
		if i = canonValue(b, end+1, depth); i < 0 || i >= len(b) {
			return -1
		}
		switch b[i] {
		case '}':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

func canonArray(b []byte, i, depth int) int {
	if depth > maxCanonDepth {
		return -1
	}
	i++ // [
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i = canonValue(b, i, depth); i < 0 || i >= len(b) {
			return -1
		}
		switch b[i] {
		case ']':
			return i + 1
		case ',':
			i++
		default:
			return -1
		}
	}
}

// canonName returns the contents of the object name starting at b[i] and
// the index after it, or nil when it is not a string of printable ASCII
// without escapes (whose byte order is RFC 8785's UTF-16 order).
func canonName(b []byte, i int) ([]byte, int) {
	if i >= len(b) || b[i] != '"' {
		return nil, -1
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, -1
		}
	}
	return nil, -1
}

// canonString returns the index after the string starting at b[i] when
// it is in the encoder's minimal form (b is valid UTF-8), or -1.
func canonString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		if j = jsonraw.PlainRun(b, j); j >= len(b) {
			return -1
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			j++
			if j >= len(b) {
				return -1
			}
			switch b[j] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
			default:
				return -1
			}
		}
	}
	return -1
}

// canonInt returns the index after the integer starting at b[i] when it
// is canonical: 0, or an optional minus and 1 to 15 digits without a
// leading zero, not followed by a fraction or exponent; else -1.
func canonInt(b []byte, i int) int {
	start := i
	if b[i] == '-' {
		i++
	}
	digits := i
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	n := i - digits
	switch {
	case n == 0 || n > 15:
		return -1
	case b[digits] == '0' && (n > 1 || digits > start):
		return -1 // a leading zero, or -0
	case i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E'):
		return -1
	}
	return i
}
