package jsonraw

import "bytes"

// This file holds an allocation-free scanner for the members of a JSON
// object and the elements of an array. Its input is a value that was
// already validated (wire.Decode checks the whole frame first), so it
// checks only what it needs to stay in bounds: on malformed input it stops
// and reports false; it never panics.

// EachMember calls fn with the raw name (quotes and escapes as written) and
// the raw value of each member of the JSON object v, in order, until fn
// returns false. It reports whether v was an object that could be scanned
// to its end (or to where fn stopped).
func EachMember(v []byte, fn func(name, val []byte) bool) bool {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '{' {
		return false
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == '}' {
		return true
	}
	for i < len(v) {
		end := SkipString(v, i)
		if end < 0 {
			return false
		}
		name := v[i:end]
		i = skipSpace(v, end)
		if i >= len(v) || v[i] != ':' {
			return false
		}
		i = skipSpace(v, i+1)
		vend := skipValue(v, i)
		if vend < 0 {
			return false
		}
		if !fn(name, v[i:vend]) {
			return true
		}
		i = skipSpace(v, vend)
		if i >= len(v) {
			return false
		}
		switch v[i] {
		case ',':
			i = skipSpace(v, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// EachElement calls fn with each raw element of the JSON array v. It
// reports whether v was an array that could be scanned to its end.
func EachElement(v []byte, fn func(val []byte)) bool {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return false
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return true
	}
	for i < len(v) {
		end := skipValue(v, i)
		if end < 0 {
			return false
		}
		fn(v[i:end])
		i = skipSpace(v, end)
		if i >= len(v) {
			return false
		}
		switch v[i] {
		case ',':
			i = skipSpace(v, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string literal starting at
// v[i] (escapes are skipped, not checked), or -1 when v[i] is not a quote or
// the string does not end.
func SkipString(v []byte, i int) int {
	if i >= len(v) || v[i] != '"' {
		return -1
	}
	for i++; i < len(v); {
		q := bytes.IndexByte(v[i:], '"')
		if q < 0 {
			return -1
		}
		i += q
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		bs := 0
		for j := i - 1; j >= 0 && v[j] == '\\'; j-- {
			bs++
		}
		i++
		if bs%2 == 0 {
			return i
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at v[i], or -1.
// Containers are skipped by counting brackets outside strings; their
// contents are trusted to be valid (the caller checked them).
func skipValue(v []byte, i int) int {
	if i >= len(v) {
		return -1
	}
	switch v[i] {
	case '"':
		return SkipString(v, i)
	case '{', '[':
		depth := 0
		for ; i < len(v); i++ {
			switch v[i] {
			case '"':
				end := SkipString(v, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// A number or a literal: runs until a delimiter.
	start := i
	for i < len(v) && v[i] != ',' && v[i] != '}' && v[i] != ']' && v[i] != ' ' &&
		v[i] != '\t' && v[i] != '\n' && v[i] != '\r' && v[i] != ':' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// ContainsAt reports whether b contains pat, as bytes.Contains does. It
// looks for pat[k], which should be a byte rare in the text (an upper-case
// letter of a member name, say), and compares pat around each one:
// bytes.Contains keys on pat's first byte, often the '"' that every JSON
// string has, and then soon falls back to a compare at every offset,
// while a rare byte lets IndexByte skip ahead. k must index pat.
func ContainsAt(b []byte, pat string, k int) bool {
	c := pat[k]
	for i := k; i < len(b); i++ {
		j := bytes.IndexByte(b[i:], c)
		if j < 0 {
			return false
		}
		i += j
		if start := i - k; start+len(pat) <= len(b) && string(b[start:start+len(pat)]) == pat {
			return true
		}
	}
	return false
}
