package capture

import "bytes"

// maxDepth is jsontext's nesting limit; validJSON enforces the same.
const maxDepth = 10000

// validJSON reports whether b, which must be valid UTF-8, is exactly one
// JSON value with nothing but whitespace around it, by the same rules as
// jsontext.Value.IsValid(jsontext.AllowDuplicateNames(true)): RFC 8259
// grammar, no lone surrogate escapes, at most maxDepth levels of nesting.
// It exists because frames are validated on the capture hot path, where it
// runs several times faster than the general decoder; FuzzValidJSON holds
// the two to the same answers.
func validJSON(b []byte) bool {
	var buf [64]byte
	stack := buf[:0] // '{' or '[' per open container
	i := skipSpace(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			if len(stack) >= maxDepth {
				return false
			}
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == close {
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				var ok bool
				if i, ok = member(b, i); !ok {
					return false
				}
			}
			continue
		case c == '"':
			var ok bool
			if i, ok = str(b, i); !ok {
				return false
			}
		case c == 't':
			if !bytes.HasPrefix(b[i:], []byte("true")) {
				return false
			}
			i += 4
		case c == 'f':
			if !bytes.HasPrefix(b[i:], []byte("false")) {
				return false
			}
			i += 5
		case c == 'n':
			if !bytes.HasPrefix(b[i:], []byte("null")) {
				return false
			}
			i += 4
		default:
			var ok bool
			if i, ok = number(b, i); !ok {
				return false
			}
		}
		// A value ended at i: close containers until another value starts.
		var ok bool
		if i, stack, ok = afterValue(b, i, stack); !ok {
			return false
		}
		if len(stack) == 0 {
			return skipSpace(b, i) == len(b)
		}
	}
}

// afterValue consumes closing brackets and a separating comma (plus the
// next member name in an object). It returns with i at the next value, or
// with an empty stack at the end of the top-level value.
func afterValue(b []byte, i int, stack []byte) (int, []byte, bool) {
	for len(stack) > 0 {
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, stack, false
		}
		top := stack[len(stack)-1]
		switch {
		case b[i] == ',':
			i = skipSpace(b, i+1)
			if top == '{' {
				var ok bool
				i, ok = member(b, i)
				return i, stack, ok
			}
			return i, stack, true
		case (top == '{' && b[i] == '}') || (top == '[' && b[i] == ']'):
			stack = stack[:len(stack)-1]
			i++
		default:
			return i, stack, false
		}
	}
	return i, stack, true
}

// member consumes an object member's name and colon, leaving i at the
// value.
func member(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, ok := str(b, i)
	if !ok {
		return i, false
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return skipSpace(b, i+1), true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// plainByte[c] is 1 for the bytes that stand for themselves inside a JSON
// string: not a control character, quote or backslash.
const plainByte = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"

// str consumes a string starting at the quote at b[i].
func str(b []byte, i int) (int, bool) {
	i++
	for i < len(b) {
		for i < len(b) && plainByte[b[i]] == 1 {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			var ok bool
			if i, ok = escape(b, i); !ok {
				return i, false
			}
		default:
			i++
		}
	}
	return i, false
}

// escape consumes the escape sequence at b[i] (a backslash). A high
// surrogate must be followed by an escaped low surrogate.
func escape(b []byte, i int) (int, bool) {
	if i+1 >= len(b) {
		return i, false
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, true
	case 'u':
	default:
		return i, false
	}
	r, ok := hex4(b, i+2)
	switch {
	case !ok:
		return i, false
	case r >= 0xDC00 && r <= 0xDFFF:
		return i, false
	case r >= 0xD800 && r <= 0xDBFF:
		if i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
			return i, false
		}
		lo, ok := hex4(b, i+8)
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return i, false
		}
		return i + 12, true
	}
	return i + 6, true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number consumes -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func number(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return i, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
