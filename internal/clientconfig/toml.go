package clientconfig

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tomlKV is one key/value pair of a TOML document and where it lies.
type tomlKV struct {
	// path is the full key: the table's path, then the dotted key.
	path []string
	// keyStart and lastKeyStart are the offsets of the key as written and
	// of its last segment.
	keyStart, lastKeyStart int
	// lineStart is where the line the pair starts on begins; lineEnd is
	// just after the newline that ends the pair (len(src) at the end).
	lineStart, lineEnd int
	// val is the value: '"' a one-line string (decoded), '[' an array,
	// '{' an inline table, 'l' anything else.
	val *node
	// inline reports whether the pair sits inside an inline table.
	inline bool
	// header reports whether this is a table header (val is a node of
	// kind 't'; only path is set).
	header bool
}

// tomlScanner reads the TOML a client configuration holds, tolerantly: it
// finds tables, keys and string or array values with their byte ranges,
// and skips over every other kind of value without judging it.
type tomlScanner struct {
	src   []byte
	pos   int
	table []string
	kvs   []tomlKV
}

// parseTOML lists the key/value pairs of src, inline tables' included.
func parseTOML(src []byte) ([]tomlKV, error) {
	s := &tomlScanner{src: src}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.pos = 3
	}
	for {
		s.skipSpace(true)
		if s.pos >= len(s.src) {
			return s.kvs, nil
		}
		var err error
		if s.src[s.pos] == '[' {
			err = s.header()
		} else {
			err = s.pair(s.table, false, 0)
		}
		if err != nil {
			return nil, err
		}
		if err := s.endOfLine(); err != nil {
			return nil, err
		}
	}
}

func (s *tomlScanner) errorf(format string, args ...any) error {
	line, col := lineCol(s.src, s.pos)
	return fmt.Errorf("%w at line %d, column %d: %s", ErrSyntax, line, col, fmt.Sprintf(format, args...))
}

// skipSpace passes blanks and comments, and newlines too when lines is set.
func (s *tomlScanner) skipSpace(lines bool) {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t':
			s.pos++
		case lines && (c == '\n' || c == '\r'):
			s.pos++
		case c == '#':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		default:
			return
		}
	}
}

// endOfLine passes blanks, a comment and one newline after a statement.
func (s *tomlScanner) endOfLine() error {
	s.skipSpace(false)
	switch {
	case s.pos >= len(s.src):
		return nil
	case s.src[s.pos] == '\n':
		s.pos++
		return nil
	case s.src[s.pos] == '\r' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '\n':
		s.pos += 2
		return nil
	}
	return s.errorf("unexpected %q after a value", s.src[s.pos])
}

// header reads [table] or [[array.of.tables]].
func (s *tomlScanner) header() error {
	s.pos++
	double := s.pos < len(s.src) && s.src[s.pos] == '['
	if double {
		s.pos++
	}
	s.skipSpace(false)
	path, _, err := s.key()
	if err != nil {
		return err
	}
	closing := "]"
	if double {
		closing = "]]"
		// Tables in an array are not addressed by name: keep them apart.
		path = append(path, "[]")
	}
	if !bytes.HasPrefix(s.src[s.pos:], []byte(closing)) {
		return s.errorf("want %s", closing)
	}
	s.pos += len(closing)
	s.table = path
	s.kvs = append(s.kvs, tomlKV{path: path, val: &node{kind: 't'}, header: true})
	return nil
}

// key reads a dotted key and the blanks after it; last is the offset of
// its last segment.
func (s *tomlScanner) key() (path []string, last int, err error) {
	for {
		last = s.pos
		seg, err := s.keySegment()
		if err != nil {
			return nil, 0, err
		}
		path = append(path, seg)
		s.skipSpace(false)
		if s.pos >= len(s.src) || s.src[s.pos] != '.' {
			return path, last, nil
		}
		s.pos++
		s.skipSpace(false)
	}
}

func (s *tomlScanner) keySegment() (string, error) {
	if s.pos < len(s.src) && (s.src[s.pos] == '"' || s.src[s.pos] == '\'') {
		n, err := s.oneLineString()
		if err != nil {
			return "", err
		}
		return n.str, nil
	}
	start := s.pos
	for s.pos < len(s.src) && (isAlnum(s.src[s.pos]) || s.src[s.pos] == '_' || s.src[s.pos] == '-') {
		s.pos++
	}
	if s.pos == start {
		return "", s.errorf("want a key")
	}
	return string(s.src[start:s.pos]), nil
}

// pair reads key = value under table, recording it.
func (s *tomlScanner) pair(table []string, inline bool, depth int) error {
	kv := tomlKV{keyStart: s.pos, inline: inline}
	kv.lineStart = s.pos
	for kv.lineStart > 0 && (s.src[kv.lineStart-1] == ' ' || s.src[kv.lineStart-1] == '\t') {
		kv.lineStart--
	}
	path, last, err := s.key()
	if err != nil {
		return err
	}
	kv.path, kv.lastKeyStart = append(slices.Clone(table), path...), last
	if s.pos >= len(s.src) || s.src[s.pos] != '=' {
		return s.errorf("want = after key %q", strings.Join(path, "."))
	}
	s.pos++
	s.skipSpace(false)
	idx := len(s.kvs)
	s.kvs = append(s.kvs, kv)
	val, err := s.value(kv.path, depth)
	if err != nil {
		return err
	}
	s.kvs[idx].val = val
	end := s.pos
	for end < len(s.src) && s.src[end] != '\n' {
		end++
	}
	s.kvs[idx].lineEnd = min(end+1, len(s.src))
	return nil
}

func (s *tomlScanner) value(path []string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, s.errorf("nested deeper than %d", maxDepth)
	}
	if s.pos >= len(s.src) {
		return nil, s.errorf("want a value")
	}
	rest := string(s.src[s.pos:min(s.pos+3, len(s.src))])
	switch c := s.src[s.pos]; {
	case rest == `"""` || rest == "'''":
		return s.multiLineString()
	case c == '"' || c == '\'':
		return s.oneLineString()
	case c == '[':
		return s.array(path, depth)
	case c == '{':
		return s.inlineTable(path, depth)
	}
	start := s.pos
	for s.pos < len(s.src) && !strings.ContainsRune(",]}#\n\r", rune(s.src[s.pos])) {
		s.pos++
	}
	for s.pos > start && (s.src[s.pos-1] == ' ' || s.src[s.pos-1] == '\t') {
		s.pos--
	}
	if s.pos == start {
		return nil, s.errorf("want a value")
	}
	return &node{kind: 'l', start: start, end: s.pos}, nil
}

func (s *tomlScanner) array(path []string, depth int) (*node, error) {
	n := &node{kind: '[', start: s.pos}
	s.pos++
	for {
		s.skipSpace(true)
		if s.pos < len(s.src) && s.src[s.pos] == ']' {
			s.pos++
			n.end = s.pos
			return n, nil
		}
		val, err := s.value(append(slices.Clone(path), "[]"), depth+1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, val)
		s.skipSpace(true)
		switch {
		case s.pos < len(s.src) && s.src[s.pos] == ',':
			s.pos++
		case s.pos < len(s.src) && s.src[s.pos] == ']':
		default:
			return nil, s.errorf("want , or ] in an array")
		}
	}
}

// inlineTable reads { k = v, ... }, recording its pairs under path. It
// allows newlines and a trailing comma (TOML 1.1).
func (s *tomlScanner) inlineTable(path []string, depth int) (*node, error) {
	n := &node{kind: '{', start: s.pos}
	s.pos++
	for {
		s.skipSpace(true)
		if s.pos < len(s.src) && s.src[s.pos] == '}' {
			s.pos++
			n.end = s.pos
			return n, nil
		}
		if err := s.pair(path, true, depth+1); err != nil {
			return nil, err
		}
		s.skipSpace(true)
		switch {
		case s.pos < len(s.src) && s.src[s.pos] == ',':
			s.pos++
		case s.pos < len(s.src) && s.src[s.pos] == '}':
		default:
			return nil, s.errorf("want , or } in an inline table")
		}
	}
}

// oneLineString reads a basic "..." or literal '...' string.
func (s *tomlScanner) oneLineString() (*node, error) {
	q := s.src[s.pos]
	n := &node{kind: '"', start: s.pos}
	s.pos++
	var b []byte
	for {
		if s.pos >= len(s.src) || s.src[s.pos] == '\n' {
			return nil, s.errorf("unclosed string")
		}
		c := s.src[s.pos]
		switch {
		case c == q:
			s.pos++
			n.end, n.str = s.pos, string(b)
			return n, nil
		case c == '\\' && q == '"':
			r, err := s.escape()
			if err != nil {
				return nil, err
			}
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, c)
			s.pos++
		}
	}
}

// escape decodes a basic string's escape at s.pos (its backslash).
func (s *tomlScanner) escape() (rune, error) {
	if s.pos+1 >= len(s.src) {
		return 0, s.errorf("unclosed string")
	}
	c := s.src[s.pos+1]
	s.pos += 2
	simple := map[byte]rune{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'e': 0x1b, '"': '"', '\\': '\\'}
	if r, ok := simple[c]; ok {
		return r, nil
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if width == 0 || s.pos+width > len(s.src) {
		return 0, s.errorf("bad escape \\%c", c)
	}
	v, err := strconv.ParseUint(string(s.src[s.pos:s.pos+width]), 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		return 0, s.errorf("bad escape \\%c", c)
	}
	s.pos += width
	return rune(v), nil
}

// multiLineString passes a multi-line string (basic or literal); its value is not
// decoded (kind 'l'): no command or argument is written that way here.
func (s *tomlScanner) multiLineString() (*node, error) {
	q := s.src[s.pos]
	delim := strings.Repeat(string(q), 3)
	n := &node{kind: 'l', start: s.pos}
	s.pos += 3
	for {
		if s.pos >= len(s.src) {
			return nil, s.errorf("unclosed multi-line string")
		}
		if q == '"' && s.src[s.pos] == '\\' {
			s.pos += 2
			continue
		}
		if strings.HasPrefix(string(s.src[s.pos:min(s.pos+3, len(s.src))]), delim) {
			s.pos += 3
			// Up to two more quotes belong to the string.
			for i := 0; i < 2 && s.pos < len(s.src) && s.src[s.pos] == q; i++ {
				s.pos++
			}
			n.end = min(s.pos, len(s.src))
			return n, nil
		}
		s.pos++
	}
}
