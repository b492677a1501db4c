package jsonraw

import (
	"encoding/binary"
	"unicode/utf8"
)

// ValidEnd returns the index just past the JSON object or array starting
// at v[i] when it is certainly valid, as jsontext validates with
// AllowDuplicateNames(true), or -1: it is a quicker check (strings are
// scanned a word at a time) that the common case passes and that leaves
// anything unusual to jsontext. -1 means "not sure", not "invalid": a
// string escape of a UTF-16 surrogate, nesting past maxValidDepth or a
// value that is not a container at v[i] make it give up. Whatever it
// accepts jsontext accepts (FuzzValidEnd checks this); bytes past the
// value are not looked at.
func ValidEnd(v []byte, i int) int {
	if i >= len(v) || (v[i] != '{' && v[i] != '[') {
		return -1
	}
	end := validValue(v, i, 0)
	if end < 0 || !utf8.Valid(v[i:end]) {
		return -1
	}
	return end
}

// maxValidDepth is the nesting ValidEnd follows (jsontext allows 10,000).
const maxValidDepth = 512

// validValue returns the index after the valid value at v[i] (not
// whitespace), or -1. UTF-8 is checked by the caller.
func validValue(v []byte, i, depth int) int {
	if i >= len(v) {
		return -1
	}
	switch c := v[i]; c {
	case '{':
		return validObject(v, i, depth+1)
	case '[':
		return validArray(v, i, depth+1)
	case '"':
		return validString(v, i)
	case 't':
		return literal(v, i, "true")
	case 'f':
		return literal(v, i, "false")
	case 'n':
		return literal(v, i, "null")
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			return validNumber(v, i)
		}
	}
	return -1
}

func literal(v []byte, i int, lit string) int {
	if len(v)-i < len(lit) || string(v[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

func validObject(v []byte, i, depth int) int {
	if depth > maxValidDepth {
		return -1
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(v) || v[i] != '"' {
			return -1
		}
		if i = validString(v, i); i < 0 {
			return -1
		}
		if i = skipSpace(v, i); i >= len(v) || v[i] != ':' {
			return -1
		}
		if i = validValue(v, skipSpace(v, i+1), depth); i < 0 {
			return -1
		}
		if i = skipSpace(v, i); i >= len(v) {
			return -1
		}
		switch v[i] {
		case '}':
			return i + 1
		case ',':
			i = skipSpace(v, i+1)
		default:
			return -1
		}
	}
}

func validArray(v []byte, i, depth int) int {
	if depth > maxValidDepth {
		return -1
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return i + 1
	}
	for {
		if i = validValue(v, i, depth); i < 0 {
			return -1
		}
		if i = skipSpace(v, i); i >= len(v) {
			return -1
		}
		switch v[i] {
		case ']':
			return i + 1
		case ',':
			i = skipSpace(v, i+1)
		default:
			return -1
		}
	}
}

// SWAR constants: a byte of each in every lane.
const (
	lanes01   = 0x0101010101010101
	lanes80   = 0x8080808080808080
	lanesQuot = lanes01 * '"'
	lanesBack = lanes01 * '\\'
	lanesCtl  = lanes01 * 0x20
)

// special reports whether the 8 bytes of w hold a '"', a '\\' or a
// control character (bytes of 0x80 and over are not special).
func special(w uint64) bool {
	q, b := w^lanesQuot, w^lanesBack
	zero := func(x uint64) uint64 { return (x - lanes01) &^ x }
	return (zero(q)|zero(b)|(w-lanesCtl)&^w)&lanes80 != 0
}

// PlainRun returns the index of the first '"', '\\' or control character
// in v at or after j (len(v) if none), skipping eight bytes at a time: the
// end of the plain text of a string.
func PlainRun(v []byte, j int) int {
	for len(v)-j >= 8 && !special(binary.LittleEndian.Uint64(v[j:])) {
		j += 8
	}
	for j < len(v) && v[j] != '"' && v[j] != '\\' && v[j] >= 0x20 {
		j++
	}
	return j
}

// validString returns the index after the string at v[i] (a '"'), or -1
// when it is not one jsontext surely accepts.
func validString(v []byte, i int) int {
	j := i + 1
	for {
		if j = PlainRun(v, j); j >= len(v) {
			return -1
		}
		switch c := v[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		default: // a '\\'
			if j = validEscape(v, j); j < 0 {
				return -1
			}
		}
	}
}

// validEscape returns the index after the escape at v[j] (a '\\'), or -1,
// also for the escape of a surrogate (jsontext pairs those).
func validEscape(v []byte, j int) int {
	if j+1 >= len(v) {
		return -1
	}
	switch v[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return j + 2
	case 'u':
		if len(v)-j < 6 {
			return -1
		}
		r := 0
		for _, c := range v[j+2 : j+6] {
			switch {
			case '0' <= c && c <= '9':
				r = r<<4 | int(c-'0')
			case 'a' <= c && c <= 'f':
				r = r<<4 | int(c-'a'+10)
			case 'A' <= c && c <= 'F':
				r = r<<4 | int(c-'A'+10)
			default:
				return -1
			}
		}
		if 0xD800 <= r && r <= 0xDFFF {
			return -1
		}
		return j + 6
	}
	return -1
}

// validNumber returns the index after the JSON number at v[i], or -1.
func validNumber(v []byte, i int) int {
	if v[i] == '-' {
		i++
	}
	switch {
	case i >= len(v):
		return -1
	case v[i] == '0':
		i++
	case '1' <= v[i] && v[i] <= '9':
		i = digits(v, i)
	default:
		return -1
	}
	if i < len(v) && v[i] == '.' {
		if i = digits(v, i+1); i < 0 {
			return -1
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if i = digits(v, i); i < 0 {
			return -1
		}
	}
	return i
}

// digits returns the index after one or more digits at v[i], or -1.
func digits(v []byte, i int) int {
	start := i
	for i < len(v) && '0' <= v[i] && v[i] <= '9' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
