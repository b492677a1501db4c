package capture

import (
	"unicode"
	"unicode/utf8"
)

// lineScan classifies a frame or stderr line that arrives in pieces, the
// way scanPayload classifies a whole one, in memory bounded by the line's
// nesting depth (a bit per level). It is the streaming twin of
// scanPayload + scanJSON for lines too large to hold (Spool), one byte at
// a time: slower, but only lines of many megabytes take it.
// FuzzSpool holds it to scanPayload's answers.
type lineScan struct {
	frame bool        // a frame line (stderr lines are never msg)
	f     *NameFilter // member names to look for, or nil
	n     int64       // bytes fed so far

	// UTF-8 validity of the whole line, across pieces.
	carry  [utf8.UTFMax]byte
	ncarry int
	badUTF bool

	phase      uint8 // phLead, phJSON, phTrail or phNot
	state      uint8 // within phJSON
	start, end int64 // msg's bounds once phJSON began and ended
	newline    bool  // msg holds a newline (outside strings): it is compacted
	hit        bool  // f selects one of msg's member names

	// Nesting: a bit per open container, set for an array.
	depth int
	kinds []uint64

	lit     string // the rest of a literal being read
	hex     int    // \u digits read
	r       rune   // their value
	lowWant bool   // a high surrogate escape wants a low one next

	inName bool   // the string being read is a member name
	odd    bool   // the name holds an escape or a byte beyond ASCII
	name   []byte // its first bytes, up to f.maxLen+1

	rb  [utf8.UTFMax]byte // a rune of lead or trail space split across pieces
	nrb int
}

// Phases of a frame line: white space before the JSON, the JSON value,
// white space after it, or not a message.
const (
	phLead uint8 = iota
	phJSON
	phTrail
	phNot
)

// States within phJSON.
const (
	stValue    uint8 = iota // a value is due
	stArrFirst              // after '[': a value or ']'
	stObjFirst              // after '{': a name or '}'
	stMember                // after ',' in an object: a name
	stColon                 // after a member name
	stNext                  // after a value: ',' or a close
	stStr                   // inside a string
	stEsc                   // after a backslash in a string
	stHex                   // inside \uXXXX
	stLowBS                 // a low surrogate's backslash is due
	stLowU                  // its 'u' is due
	stLit                   // inside true, false or null
	stNumMinus              // after '-'
	stNumZero               // after a leading 0
	stNumInt                // in the integer digits
	stNumDot                // after '.'
	stNumFrac               // in the fraction digits
	stNumE                  // after 'e'
	stNumESign              // after the exponent's sign
	stNumExp                // in the exponent digits
)

func newLineScan(t Type, f *NameFilter) lineScan {
	return lineScan{frame: t == TypeFrame, f: f}
}

// feed classifies the next piece of the line.
func (s *lineScan) feed(p []byte) {
	s.utf(p)
	if s.frame {
		for i := 0; i < len(p) && s.phase != phNot; {
			switch s.phase {
			case phLead:
				i = s.lead(p, i)
			case phJSON:
				i = s.json(p, i)
			case phTrail:
				i = s.trail(p, i)
			}
		}
	}
	s.n += int64(len(p))
}

// utf tracks whether the line is valid UTF-8, carrying a rune split
// between pieces.
func (s *lineScan) utf(p []byte) {
	if s.badUTF {
		return
	}
	for s.ncarry > 0 && len(p) > 0 {
		s.carry[s.ncarry] = p[0]
		s.ncarry++
		p = p[1:]
		if utf8.FullRune(s.carry[:s.ncarry]) {
			if r, size := utf8.DecodeRune(s.carry[:s.ncarry]); r == utf8.RuneError && size <= 1 {
				s.badUTF = true
				return
			}
			s.ncarry = 0
		}
	}
	if s.ncarry > 0 {
		return // p ended inside the carried rune
	}
	k := runeCut(p)
	if !utf8.Valid(p[:k]) {
		s.badUTF = true
		return
	}
	s.ncarry = copy(s.carry[:], p[k:])
}

// runeCut returns the length of p without a last rune that p cuts short.
func runeCut(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			break
		}
	}
	return len(p)
}

// spaceRune reads the rune at p[i] for the lead and trail phases, which
// admit only white space. It returns the index after what it consumed and
// whether a whole rune was read (false: p ended inside it, or it was not
// valid, which sets phNot).
func (s *lineScan) spaceRune(p []byte, i int) (int, rune, bool) {
	if s.nrb == 0 && p[i] < utf8.RuneSelf {
		return i + 1, rune(p[i]), true
	}
	for i < len(p) && s.nrb < utf8.UTFMax && !utf8.FullRune(s.rb[:s.nrb]) {
		s.rb[s.nrb] = p[i]
		s.nrb++
		i++
	}
	if !utf8.FullRune(s.rb[:s.nrb]) {
		return i, 0, false
	}
	r, size := utf8.DecodeRune(s.rb[:s.nrb])
	if r == utf8.RuneError && size <= 1 || size != s.nrb {
		s.phase = phNot
		return i, 0, false
	}
	s.nrb = 0
	return i, r, true
}

// lead skips white space before the message, which must open with '{' or
// '['.
func (s *lineScan) lead(p []byte, i int) int {
	for i < len(p) && s.phase == phLead {
		if s.nrb == 0 && (p[i] == '{' || p[i] == '[') {
			s.start = s.n + int64(i)
			s.phase = phJSON
			s.state = stValue
			return i
		}
		j, r, ok := s.spaceRune(p, i)
		i = j
		if !ok {
			continue
		}
		if !unicode.IsSpace(r) {
			s.phase = phNot
			return i
		}
	}
	return i
}

// trail admits only white space after the message.
func (s *lineScan) trail(p []byte, i int) int {
	for i < len(p) && s.phase == phTrail {
		j, r, ok := s.spaceRune(p, i)
		i = j
		if ok && !unicode.IsSpace(r) {
			s.phase = phNot
		}
	}
	return i
}

// isWS reports JSON's insignificant white space.
func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
