package filter

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one term as typed: an optional "!", then a key and a value, or
// free text (key == "").
type token struct {
	neg      bool
	key      string
	value    string
	col      int // 1-based rune column where the term starts
	valueCol int // 1-based rune column where the value or text starts
}

// scanner splits the input into tokens.
type scanner struct {
	src string
	off int
}

// column returns the 1-based rune column of byte offset off.
func (s *scanner) column(off int) int {
	return utf8.RuneCountInString(s.src[:off]) + 1
}

// skipSpace moves past white space and reports whether input remains.
func (s *scanner) skipSpace() bool {
	for s.off < len(s.src) {
		r, n := utf8.DecodeRuneInString(s.src[s.off:])
		if !unicode.IsSpace(r) {
			return true
		}
		s.off += n
	}
	return false
}

// atEnd reports whether the scanner stands at white space or the end.
func (s *scanner) atEnd() bool {
	if s.off >= len(s.src) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s.src[s.off:])
	return unicode.IsSpace(r)
}

// bare reads up to white space or a double quote.
func (s *scanner) bare() string {
	start := s.off
	for s.off < len(s.src) && !s.atEnd() && s.src[s.off] != '"' {
		_, n := utf8.DecodeRuneInString(s.src[s.off:])
		s.off += n
	}
	return s.src[start:s.off]
}

// quoted reads a double-quoted string at s.off; a backslash takes the next
// character literally.
func (s *scanner) quoted(col int) (string, error) {
	start := s.off
	s.off++ // the opening quote
	var b strings.Builder
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '"':
			s.off++
			if !s.atEnd() {
				return "", s.errorf(s.src[start:s.off], s.column(s.off), "want a space after the closing quote")
			}
			return b.String(), nil
		case c == '\\' && s.off+1 < len(s.src):
			s.off++
			_, n := utf8.DecodeRuneInString(s.src[s.off:])
			b.WriteString(s.src[s.off : s.off+n])
			s.off += n
		default:
			b.WriteByte(c)
			s.off++
		}
	}
	return "", s.errorf(s.src[start:], col, "unterminated quote")
}

// errorf returns a *SyntaxError for the raw term text.
func (s *scanner) errorf(raw string, col int, msg string) error {
	return &SyntaxError{Term: raw, Column: col, Msg: msg}
}

// next reads the token at s.off, which is not white space.
func (s *scanner) next() (token, error) {
	t := token{col: s.column(s.off)}
	start := s.off
	if s.src[s.off] == '!' {
		t.neg = true
		s.off++
	}
	t.valueCol = s.column(s.off)
	if s.off < len(s.src) && s.src[s.off] == '"' {
		text, err := s.quoted(t.valueCol)
		t.value = text
		return t, err
	}
	word := s.bare()
	key, value, ok := strings.Cut(word, ":")
	if !ok {
		t.value = word
		if !s.atEnd() { // a quote inside bare text
			return t, s.errorf(s.src[start:s.off+1], s.column(s.off), "unexpected quote")
		}
		return t, nil
	}
	if key == "" {
		return t, s.errorf(word, t.col, "missing key before the colon")
	}
	t.key = lower(key)
	t.valueCol = s.column(s.off - len(value))
	switch {
	case value == "" && !s.atEnd():
		v, err := s.quoted(t.valueCol)
		t.value = v
		return t, err
	case !s.atEnd():
		return t, s.errorf(s.src[start:s.off+1], s.column(s.off), "unexpected quote")
	}
	t.value = value
	return t, nil
}
