package capture

// This file holds lineScan's JSON states: the grammar scanJSON checks,
// one byte at a time so that a value may be cut anywhere between pieces.

// json runs the JSON states over p from i and returns where it stopped:
// len(p), or where the message ended or proved not to be one.
func (s *lineScan) json(p []byte, i int) int {
	for i < len(p) && s.phase == phJSON {
		if s.state == stStr {
			i = s.str(p, i)
			continue
		}
		if s.step(p[i], s.n+int64(i)) {
			i++
		}
	}
	return i
}

func (s *lineScan) fail() { s.phase = phNot }

// step takes byte c, at offset at in the line, in any state but stStr. It
// reports false when c ended a number and must be taken again.
func (s *lineScan) step(c byte, at int64) bool {
	switch s.state {
	case stValue, stArrFirst:
		s.value(c, at)
	case stObjFirst, stMember:
		s.member(c, at)
	case stColon:
		switch {
		case c == ':':
			s.state = stValue
		case isWS(c):
			s.ws(c)
		default:
			s.fail()
		}
	case stNext:
		s.next(c, at)
	case stEsc:
		s.esc(c)
	case stHex:
		s.hexDigit(c)
	case stLowBS, stLowU:
		s.lowEscape(c)
	case stLit:
		if c != s.lit[0] {
			s.fail()
		} else if s.lit = s.lit[1:]; s.lit == "" {
			s.state = stNext
		}
	default:
		return s.num(c)
	}
	return true
}

// value takes the first byte of a value (or white space before it).
func (s *lineScan) value(c byte, at int64) {
	switch c {
	case '"':
		s.state, s.inName = stStr, false
	case '{', '[':
		s.open(c)
	case ']':
		if s.state != stArrFirst {
			s.fail()
			return
		}
		s.close(at)
	case 't':
		s.lit, s.state = "rue", stLit
	case 'f':
		s.lit, s.state = "alse", stLit
	case 'n':
		s.lit, s.state = "ull", stLit
	case '-':
		s.state = stNumMinus
	case '0':
		s.state = stNumZero
	case ' ', '\t', '\n', '\r':
		s.ws(c)
	default:
		if c < '1' || c > '9' {
			s.fail()
			return
		}
		s.state = stNumInt
	}
}

// member takes the opening quote of a member name (or white space, or
// the '}' of an empty object).
func (s *lineScan) member(c byte, at int64) {
	switch {
	case c == '"':
		s.state, s.inName, s.odd, s.name = stStr, true, false, s.name[:0]
	case c == '}' && s.state == stObjFirst:
		s.close(at)
	case isWS(c):
		s.ws(c)
	default:
		s.fail()
	}
}

// next takes what follows a value: a comma, a close, or white space.
func (s *lineScan) next(c byte, at int64) {
	arr := s.top()
	switch {
	case c == ',' && arr:
		s.state = stValue
	case c == ',':
		s.state = stMember
	case c == ']' && arr, c == '}' && !arr:
		s.close(at)
	case isWS(c):
		s.ws(c)
	default:
		s.fail()
	}
}

func (s *lineScan) ws(c byte) {
	if c == '\n' {
		s.newline = true
	}
}

// open pushes a container, up to maxDepth levels as scanJSON allows.
func (s *lineScan) open(c byte) {
	if s.depth >= maxDepth {
		s.fail()
		return
	}
	w, bit := s.depth/64, uint64(1)<<(s.depth%64)
	for len(s.kinds) <= w {
		s.kinds = append(s.kinds, 0)
	}
	if c == '[' {
		s.kinds[w] |= bit
		s.state = stArrFirst
	} else {
		s.kinds[w] &^= bit
		s.state = stObjFirst
	}
	s.depth++
}

// top reports whether the innermost open container is an array.
func (s *lineScan) top() bool {
	d := s.depth - 1
	return s.kinds[d/64]&(1<<(d%64)) != 0
}

// close pops a container whose closing byte is at offset at; closing the
// outermost one ends the message.
func (s *lineScan) close(at int64) {
	s.depth--
	s.state = stNext
	if s.depth == 0 {
		s.end = at + 1
		s.phase = phTrail
	}
}

// str reads string contents from p[i] up to the closing quote, an escape
// or the end of p.
func (s *lineScan) str(p []byte, i int) int {
	for i < len(p) {
		if !s.inName {
			for i < len(p) && p[i] >= ' ' && p[i] != '"' && p[i] != '\\' {
				i++
			}
			if i == len(p) {
				return i
			}
		}
		switch c := p[i]; {
		case c == '"':
			s.endString()
			return i + 1
		case c == '\\':
			s.odd = s.odd || s.inName
			s.state = stEsc
			return i + 1
		case c < ' ':
			s.fail()
			return i
		default:
			s.nameByte(c)
		}
		i++
	}
	return i
}

// nameByte keeps a byte of a member name for the NameFilter.
func (s *lineScan) nameByte(c byte) {
	if c >= 0x80 {
		s.odd = true
	}
	if s.f != nil && len(s.name) <= s.f.maxLen {
		s.name = append(s.name, c)
	}
}

func (s *lineScan) endString() {
	if !s.inName {
		s.state = stNext
		return
	}
	if s.f != nil && !s.hit {
		n := len(s.name)
		s.hit = s.odd || n > 0 && s.f.selects(s.name)
	}
	s.state = stColon
}

// esc takes the byte after a backslash.
func (s *lineScan) esc(c byte) {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.state = stStr
	case 'u':
		s.state, s.hex, s.r = stHex, 0, 0
	default:
		s.fail()
	}
}

// hexDigit takes a digit of \uXXXX; a high surrogate must be followed by
// an escaped low one, and a low one may not stand alone.
func (s *lineScan) hexDigit(c byte) {
	var v rune
	switch {
	case c >= '0' && c <= '9':
		v = rune(c - '0')
	case c >= 'a' && c <= 'f':
		v = rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		v = rune(c - 'A' + 10)
	default:
		s.fail()
		return
	}
	s.r = s.r<<4 | v
	if s.hex++; s.hex < 4 {
		return
	}
	low := s.r >= 0xDC00 && s.r <= 0xDFFF
	switch {
	case s.lowWant != low:
		s.fail()
	case s.lowWant:
		s.lowWant, s.state = false, stStr
	case s.r >= 0xD800 && s.r <= 0xDBFF:
		s.lowWant, s.state = true, stLowBS
	default:
		s.state = stStr
	}
}

// lowEscape takes the `\u` of a low surrogate's escape.
func (s *lineScan) lowEscape(c byte) {
	switch {
	case s.state == stLowBS && c == '\\':
		s.state = stLowU
	case s.state == stLowU && c == 'u':
		s.state, s.hex, s.r = stHex, 0, 0
	default:
		s.fail()
	}
}

// num takes a byte of a number, or reports false when c ends it (c is then
// taken again in stNext).
func (s *lineScan) num(c byte) bool {
	digit := c >= '0' && c <= '9'
	switch s.state {
	case stNumMinus, stNumDot, stNumESign:
		switch {
		case s.state == stNumMinus && c == '0':
			s.state = stNumZero
		case !digit:
			s.fail()
		case s.state == stNumMinus:
			s.state = stNumInt
		case s.state == stNumDot:
			s.state = stNumFrac
		default:
			s.state = stNumExp
		}
		return true
	case stNumE:
		switch {
		case c == '+' || c == '-':
			s.state = stNumESign
		case digit:
			s.state = stNumExp
		default:
			s.fail()
		}
		return true
	}
	switch {
	case digit && s.state != stNumZero:
		return true
	case c == '.' && (s.state == stNumZero || s.state == stNumInt):
		s.state = stNumDot
		return true
	case (c == 'e' || c == 'E') && s.state != stNumExp:
		s.state = stNumE
		return true
	}
	s.state = stNext
	return false
}
