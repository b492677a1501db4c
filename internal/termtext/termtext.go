// Package termtext makes untrusted text safe to print on a terminal. It
// sits at the very end of the data flow, between a view (the text export,
// the sessions and ledger tables, the demo summary, error messages) and
// the writer that reaches a terminal: every string that came from the
// wire, the command line or a file passes through Escape (one table cell
// or line) or EscapeMultiline (a block whose line breaks are its own)
// before it is written. JSON outputs do not use it: their encoders escape.
//
// What is escaped, and how it is shown:
//
//   - C0 controls and DEL: \x1b, \x07, \x7f ... (\n and \t are kept by
//     EscapeMultiline only);
//   - C1 controls U+0080–U+009F: \u009b ...;
//   - bidirectional formatting characters (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069): \u202e ...;
//   - bytes that are not valid UTF-8: \x9b ...;
//   - a backslash that would otherwise read as the start of one of these
//     escapes (one followed by a backslash, by x and two hex digits, by u
//     and four, or by an escaped character): \\.
//
// So two different strings never print the same, while ordinary text,
// Windows paths included, prints unchanged. The functions are pure and
// safe for concurrent use; a string with nothing to escape is returned as
// is, without allocating.
package termtext

import (
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Escape returns s with every control character (newline and tab
// included), every bidirectional formatting character and every invalid
// UTF-8 byte written as a visible escape. Use it for one-line text: table
// cells, titles, labels, paths.
func Escape(s string) string {
	return escape(s, false)
}

// EscapeMultiline is Escape keeping newlines and tabs, for a block of
// several lines, such as an error message that lists problems one a line.
func EscapeMultiline(s string) string {
	return escape(s, true)
}

// Append appends Escape(s) to b.
func Append(b []byte, s string) []byte {
	i := clean(s, false)
	if i == len(s) {
		return append(b, s...)
	}
	return appendFrom(append(b, s[:i]...), s, i, false)
}

func escape(s string, multiline bool) string {
	i := clean(s, multiline)
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	return string(appendFrom(append(b, s[:i]...), s, i, multiline))
}

// clean returns the index of the first byte of s that needs escaping, or
// len(s).
func clean(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '\\' {
			i++
			continue
		}
		if c == '\\' {
			if backslashEscaped(s, i+1, multiline) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, n, multiline) {
			return i
		}
		i += n
	}
	return len(s)
}

// appendFrom appends the escaped form of s[i:] to b.
func appendFrom(b []byte, s string, i int, multiline bool) []byte {
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if c == '\\' {
			b = append(b, '\\')
			if backslashEscaped(s, i+1, multiline) {
				b = append(b, '\\')
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !needsEscape(r, n, multiline):
			b = append(b, s[i:i+n]...)
		case r == utf8.RuneError && n == 1, r < utf8.RuneSelf:
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
		}
		i += n
	}
	return b
}

// backslashEscaped reports whether a backslash followed by s[i:] must be
// doubled: when what follows it would otherwise read as an escape.
func backslashEscaped(s string, i int, multiline bool) bool {
	if i >= len(s) {
		return false
	}
	switch c := s[i]; {
	case c == '\\':
		return true
	case c == 'x':
		return hexRun(s[i+1:], 2)
	case c == 'u':
		return hexRun(s[i+1:], 4)
	case c >= 0x20 && c < 0x7f:
		return false
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return needsEscape(r, n, multiline)
}

// hexRun reports whether s starts with n hex digits.
func hexRun(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for _, c := range []byte(s[:n]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// needsEscape reports whether the rune r, n bytes long in its string, is
// shown as an escape.
func needsEscape(r rune, n int, multiline bool) bool {
	switch {
	case r == utf8.RuneError && n == 1: // an invalid byte
		return true
	case r == '\n' || r == '\t':
		return !multiline
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	}
	return isBidi(r)
}

// isBidi reports whether r is a bidirectional formatting character: the
// Arabic letter mark, the LRM and RLM marks, the embeddings and overrides,
// and the isolates.
func isBidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
