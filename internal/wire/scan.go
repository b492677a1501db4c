package wire

import "bytes"

// This file holds an allocation-free scanner for the members of a JSON
// object or the elements of an array, like internal/mcp's. Decode runs it
// only on input jsontext has already validated, so it checks just enough to
// stay in bounds: on anything unexpected it stops and reports false.

// eachMember calls fn with the raw name (quotes included) and raw value of
// each member of the object v, in order. It reports whether v was scanned
// to its end.
func eachMember(v []byte, fn func(name, val []byte)) bool {
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == '}' {
		return true
	}
	for i < len(v) {
		end := skipString(v, i)
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
		fn(name, v[i:vend])
		if i = skipSpace(v, vend); i >= len(v) {
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

// eachElement calls fn with each raw element of the array v. It reports
// whether v was scanned to its end.
func eachElement(v []byte, fn func(val []byte)) bool {
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == ']' {
		return true
	}
	for i < len(v) {
		end := skipValue(v, i)
		if end < 0 {
			return false
		}
		fn(v[i:end])
		if i = skipSpace(v, end); i >= len(v) {
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

// skipString returns the index just past the string starting at v[i], or -1.
func skipString(v []byte, i int) int {
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
		for j := i - 1; v[j] == '\\'; j-- {
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
func skipValue(v []byte, i int) int {
	if i >= len(v) {
		return -1
	}
	switch v[i] {
	case '"':
		return skipString(v, i)
	case '{', '[':
		depth := 0
		for ; i < len(v); i++ {
			switch v[i] {
			case '"':
				end := skipString(v, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	// A number or a literal runs until a delimiter.
	start := i
	for i < len(v) && v[i] != ',' && v[i] != '}' && v[i] != ']' && v[i] != ' ' &&
		v[i] != '\t' && v[i] != '\n' && v[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}
