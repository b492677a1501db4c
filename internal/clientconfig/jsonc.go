package clientconfig

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting the scanners follow, so that a hostile file
// cannot exhaust the stack.
const maxDepth = 512

// ErrSyntax is the error the scanners return for a document they cannot
// read; the message says where.
var ErrSyntax = errors.New("syntax error")

// node is one JSON value and where it lies in the document: src[start:end]
// is its text. Strings carry their decoded value; objects their members in
// document order; arrays their elements.
type node struct {
	kind    byte // '{', '[', '"', or 'l' (number, true, false, null)
	start   int
	end     int
	str     string
	members []member
	elems   []*node
}

// member is one key of an object and its value.
type member struct {
	key      string
	keyStart int
	val      *node
}

// get returns the value of the last member named key (JSON readers keep
// the last of duplicate keys), or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// jsonScanner reads JSONC: JSON plus // and /* */ comments, trailing
// commas, and a leading UTF-8 byte order mark.
type jsonScanner struct {
	src []byte
	pos int
}

// parseJSONC reads src as one JSONC value.
func parseJSONC(src []byte) (*node, error) {
	s := &jsonScanner{src: src}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.pos = 3
	}
	if err := s.skip(); err != nil {
		return nil, err
	}
	n, err := s.value(0)
	if err != nil {
		return nil, err
	}
	if err := s.skip(); err != nil {
		return nil, err
	}
	if s.pos != len(src) {
		return nil, s.errorf("unexpected %q after the document", src[s.pos])
	}
	return n, nil
}

func (s *jsonScanner) errorf(format string, args ...any) error {
	line, col := lineCol(s.src, s.pos)
	return fmt.Errorf("%w at line %d, column %d: %s", ErrSyntax, line, col, fmt.Sprintf(format, args...))
}

// lineCol gives the 1-based line and column (in bytes) of offset pos.
func lineCol(src []byte, pos int) (line, col int) {
	line, col = 1, 1
	for _, c := range src[:min(pos, len(src))] {
		col++
		if c == '\n' {
			line, col = line+1, 1
		}
	}
	return line, col
}

// skip passes white space and comments.
func (s *jsonScanner) skip() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.pos++
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := indexFrom(s.src, s.pos+2, "*/")
			if end < 0 {
				return s.errorf("unclosed /* comment")
			}
			s.pos = end + 2
		default:
			return nil
		}
	}
	return nil
}

func indexFrom(src []byte, from int, sep string) int {
	for i := from; i+len(sep) <= len(src); i++ {
		if string(src[i:i+len(sep)]) == sep {
			return i
		}
	}
	return -1
}

func (s *jsonScanner) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, s.errorf("nested deeper than %d", maxDepth)
	}
	if s.pos >= len(s.src) {
		return nil, s.errorf("unexpected end of document")
	}
	switch c := s.src[s.pos]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		return s.array(depth)
	case c == '"':
		return s.string()
	case c == '-' || c == '+' || c == '.' || isAlnum(c):
		start := s.pos
		for s.pos < len(s.src) && (isAlnum(s.src[s.pos]) || s.src[s.pos] == '-' || s.src[s.pos] == '+' || s.src[s.pos] == '.') {
			s.pos++
		}
		return &node{kind: 'l', start: start, end: s.pos}, nil
	default:
		return nil, s.errorf("unexpected %q", c)
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (s *jsonScanner) object(depth int) (*node, error) {
	n := &node{kind: '{', start: s.pos}
	s.pos++
	for {
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			s.pos++
			n.end = s.pos
			return n, nil
		}
		if s.pos >= len(s.src) || s.src[s.pos] != '"' {
			return nil, s.errorf("want a key or }")
		}
		key, err := s.string()
		if err != nil {
			return nil, err
		}
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos >= len(s.src) || s.src[s.pos] != ':' {
			return nil, s.errorf("want : after key %q", key.str)
		}
		s.pos++
		if err := s.skip(); err != nil {
			return nil, err
		}
		val, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key.str, keyStart: key.start, val: val})
		if err := s.comma('}'); err != nil {
			return nil, err
		}
	}
}

// comma passes the comma after a member or element, or stops before the
// closing byte.
func (s *jsonScanner) comma(closing byte) error {
	if err := s.skip(); err != nil {
		return err
	}
	switch {
	case s.pos < len(s.src) && s.src[s.pos] == ',':
		s.pos++
		return nil
	case s.pos < len(s.src) && s.src[s.pos] == closing:
		return nil
	}
	return s.errorf("want , or %c", closing)
}

func (s *jsonScanner) array(depth int) (*node, error) {
	n := &node{kind: '[', start: s.pos}
	s.pos++
	for {
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			n.end = s.pos
			return n, nil
		}
		val, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, val)
		if err := s.comma(']'); err != nil {
			return nil, err
		}
	}
}

// string reads a JSON string and decodes it. A lone surrogate becomes
// U+FFFD, as encoding/json does.
func (s *jsonScanner) string() (*node, error) {
	n := &node{kind: '"', start: s.pos}
	s.pos++
	var b []byte
	for {
		run := s.pos
		for s.pos < len(s.src) && s.src[s.pos] >= 0x20 && s.src[s.pos] != '"' && s.src[s.pos] != '\\' {
			s.pos++
		}
		if s.pos >= len(s.src) {
			return nil, s.errorf("unclosed string")
		}
		switch c := s.src[s.pos]; {
		case c == '"' && b == nil:
			n.str = string(s.src[run:s.pos])
			s.pos++
			n.end = s.pos
			return n, nil
		case c == '"':
			n.str = string(append(b, s.src[run:s.pos]...))
			s.pos++
			n.end = s.pos
			return n, nil
		case c < 0x20:
			return nil, s.errorf("control character in string")
		default:
			b = append(b, s.src[run:s.pos]...)
			r, err := s.escape()
			if err != nil {
				return nil, err
			}
			b = utf8.AppendRune(b, r)
		}
	}
}

// escape decodes the escape sequence at s.pos (its backslash).
func (s *jsonScanner) escape() (rune, error) {
	if s.pos+1 >= len(s.src) {
		return 0, s.errorf("unclosed string")
	}
	c := s.src[s.pos+1]
	s.pos += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u': // \uXXXX, read below
	default:
		return 0, s.errorf("bad escape \\%c", c)
	}
	r, err := s.hex4()
	if err != nil {
		return 0, err
	}
	if utf16.IsSurrogate(r) && s.pos+1 < len(s.src) && s.src[s.pos] == '\\' && s.src[s.pos+1] == 'u' {
		save := s.pos
		s.pos += 2
		r2, err := s.hex4()
		if err == nil {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, nil
			}
		}
		s.pos = save
	}
	if utf16.IsSurrogate(r) {
		return utf8.RuneError, nil
	}
	return r, nil
}

func (s *jsonScanner) hex4() (rune, error) {
	if s.pos+4 > len(s.src) {
		return 0, s.errorf("short \\u escape")
	}
	v, err := strconv.ParseUint(string(s.src[s.pos:s.pos+4]), 16, 32)
	if err != nil {
		return 0, s.errorf("bad \\u escape")
	}
	s.pos += 4
	return rune(v), nil
}
