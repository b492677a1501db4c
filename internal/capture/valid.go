package capture

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// maxDepth is jsontext's nesting limit; validJSON enforces the same.
const maxDepth = 10000

// validJSON reports whether b is exactly one JSON value with nothing but
// whitespace around it, by the same rules as
// jsontext.Value.IsValid(jsontext.AllowDuplicateNames(true)): RFC 8259
// grammar, valid UTF-8, no lone surrogate escapes, at most maxDepth levels
// of nesting. A valid value is therefore valid UTF-8 as a whole: outside
// strings the grammar admits only ASCII.
//
// It exists because every frame is validated on the capture hot path, where
// it does in one pass what utf8.Valid and jsontext do in two, at about a
// third of their cost: no tokens, string contents skipped eight bytes at a
// time (BenchmarkValid). FuzzValidJSON holds it to jsontext's answers.
func validJSON(b []byte) bool {
	ok, _, _ := scanJSON(b, nil)
	return ok
}

// rpcPrefix is how JSON-RPC messages begin, as two little-endian words.
const (
	rpcPrefix  = `{"jsonrpc":"2.0"`
	rpcPrefix0 = uint64('{') | uint64('"')<<8 | uint64('j')<<16 | uint64('s')<<24 | uint64('o')<<32 | uint64('n')<<40 | uint64('r')<<48 | uint64('p')<<56
	rpcPrefix1 = uint64('c') | uint64('"')<<8 | uint64(':')<<16 | uint64('"')<<24 | uint64('2')<<32 | uint64('.')<<40 | uint64('0')<<48 | uint64('"')<<56
)

// scanJSON is validJSON that also reports whether b holds any whitespace
// outside strings, where alone a valid value can hold a newline, and
// whether f selects one of its member names (see NameFilter; false when f
// is nil). hit means nothing when b is not valid.
func scanJSON(b []byte, f *NameFilter) (valid, spaced, hit bool) {
	var buf [64]byte
	stack := buf[:0] // the open containers below top
	var top byte     // the innermost open container, '{' or '[', or 0
	n := len(b)
	i := 0
	var c byte
	var ok, name bool
	start, odd := 0, false // where the member name being read starts; whether it holds an escape or a byte beyond ASCII
	if n >= len(rpcPrefix) && binary.LittleEndian.Uint64(b) == rpcPrefix0 && binary.LittleEndian.Uint64(b[8:]) == rpcPrefix1 {
		// Nearly every frame opens so: skip to just after "2.0".
		i, top = len(rpcPrefix), '{'
		hit = f != nil && f.jsonrpc
		goto next
	}

value: // a value starts at i, after optional whitespace
	if i >= n {
		return false, false, false
	}
	switch c = b[i]; c {
	case '"':
		i++
		name = false
		goto str
	case '{', '[':
		if len(stack) >= maxDepth-1 && top != 0 {
			return false, false, false
		}
		i++
		if i < n && b[i] <= ' ' {
			i, spaced = skipSpace(b, i), true
		}
		if i < n && b[i] == c+2 { // '}' or ']'
			i++
			goto next
		}
		if top != 0 {
			stack = append(stack, top)
		}
		top = c
		if c == '[' {
			goto value
		}
		goto member
	case 't':
		if i+4 > n || binary.LittleEndian.Uint32(b[i:]) != 't'|'r'<<8|'u'<<16|'e'<<24 {
			return false, false, false
		}
		i += 4
	case 'f':
		if i+5 > n || binary.LittleEndian.Uint32(b[i+1:]) != 'a'|'l'<<8|'s'<<16|'e'<<24 {
			return false, false, false
		}
		i += 5
	case 'n':
		if i+4 > n || binary.LittleEndian.Uint32(b[i:]) != 'n'|'u'<<8|'l'<<16|'l'<<24 {
			return false, false, false
		}
		i += 4
	case ' ', '\t', '\n', '\r':
		i, spaced = skipSpace(b, i), true
		goto value
	default:
		if i, ok = number(b, i); !ok {
			return false, false, false
		}
	}

next: // a value ended at i: a comma, a close, or the end
	if i < n {
		switch c = b[i]; {
		case c == ',' && top != 0:
			i++
			if top == '[' {
				goto value
			}
			goto member
		case c == top+2 && top != 0:
			i++
			top = 0
			if len(stack) > 0 {
				top = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
			goto next
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i, spaced = skipSpace(b, i), true
			goto next
		}
		return false, false, false
	}
	return top == 0, spaced, hit

member: // an object member's name starts at i, after optional whitespace
	if i < n && b[i] <= ' ' {
		i, spaced = skipSpace(b, i), true
	}
	if i >= n || b[i] != '"' {
		return false, false, false
	}
	i++
	name, start, odd = true, i, false
	goto str

colon: // a member name ended at i
	if i < n && b[i] == ':' {
		i++
		goto value
	}
	if i < n && b[i] <= ' ' {
		i, spaced = skipSpace(b, i), true
	}
	if i >= n || b[i] != ':' {
		return false, false, false
	}
	i++
	goto value

str: // a string's contents start at i; it is a member name if name is set
	for {
		if i+8 <= n {
			m := specialLanes(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				// A long string (a padded argument, a resource's text)
				// is most of a large frame's bytes: past eight plain
				// bytes, look at 32 at a time. A lane is marked falsely
				// only above a real mark in its word, so the first
				// marked lane of the first marked word is real.
				for i+32 <= n {
					w := b[i : i+32 : i+32]
					m0, m1 := specialLanes(binary.LittleEndian.Uint64(w)), specialLanes(binary.LittleEndian.Uint64(w[8:]))
					m2, m3 := specialLanes(binary.LittleEndian.Uint64(w[16:])), specialLanes(binary.LittleEndian.Uint64(w[24:]))
					switch {
					case m0 != 0:
						i += bits.TrailingZeros64(m0) >> 3
					case m1 != 0:
						i += 8 + bits.TrailingZeros64(m1)>>3
					case m2 != 0:
						i += 16 + bits.TrailingZeros64(m2)>>3
					case m3 != 0:
						i += 24 + bits.TrailingZeros64(m3)>>3
					default:
						i += 32
						continue
					}
					goto special
				}
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else if i = plainTail(b, i); i >= n {
			return false, false, false
		}
	special: // b[i] does not stand for itself
		if b[i] == '"' {
			i++
			break
		}
		odd = odd || name
		if i, ok = strSpecial(b, i); !ok {
			return false, false, false
		}
	}
	if name {
		if f != nil && !hit {
			hit = odd || f.selects(b[start:i-1])
		}
		goto colon
	}
	goto next
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// SWAR constants: a byte of ones, a byte's top bit, in every lane.
const (
	lanes1 = 0x0101010101010101
	lanes8 = 0x8080808080808080
)

// specialLanes returns, for the eight bytes of x (little-endian), a mask
// whose lowest set top bit marks the first byte that does not stand for
// itself inside a JSON string: '"', '\\', a control byte or a non-ASCII
// byte. Lanes above the first such byte may be marked falsely (borrows),
// never those below it.
func specialLanes(x uint64) uint64 {
	q := x ^ ('"' * lanes1)
	s := x ^ ('\\' * lanes1)
	return ((q - lanes1) &^ q & lanes8) | ((s - lanes1) &^ s & lanes8) | ((x-' '*lanes1)|x)&lanes8
}

// plainTail returns the index of the first byte at or after i that does
// not stand for itself in a string (see specialLanes), or len(b).
func plainTail(b []byte, i int) int {
	for i < len(b) && b[i] >= ' ' && b[i] < utf8.RuneSelf && b[i] != '"' && b[i] != '\\' {
		i++
	}
	return i
}

// strSpecial consumes the escape sequence or non-ASCII rune at b[i],
// rejecting control bytes and invalid UTF-8.
func strSpecial(b []byte, i int) (int, bool) {
	switch c := b[i]; {
	case c == '\\':
		return escape(b, i)
	case c < ' ':
		return i, false
	}
	r, size := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError && size == 1 {
		return i, false
	}
	return i + size, true
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
		i = digits(b, i+1)
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

// A NameFilter is a set of object member names that the capture writer
// looks for while it validates a frame (WriteLineUnselected), so that a
// redactor need not scan the frames that hold none of them. It folds ASCII
// case as a first cut and leaves the last word to its match function; a
// name spelled with an escape or holding a byte beyond ASCII is always
// selected, since only decoding could tell what it says.
type NameFilter struct {
	maxLen int
	// firsts and lasts hold, per name length, a bit per first and last
	// byte of the names of that length (folded: c|0x20, 6 bits); a name
	// of maxMasked bytes or more passes them whatever its bytes.
	firsts, lasts [maxMasked]uint64
	match         func(name []byte) bool
	jsonrpc       bool // the filter selects "jsonrpc", which scanJSON may skip
	// long is set when a name longer than maxLen is selected unread
	// (NewTailFilter): a spooled frame keeps only maxLen+1 bytes of a
	// name, and both scans must give the same answer.
	long bool
}

// maxMasked bounds the name lengths NameFilter keeps masks for.
const maxMasked = 64

// NewNameFilter returns a filter for names, which must be ASCII. A member
// name passes when it has the length and the first and last bytes of one
// of names, ignoring ASCII case; it is selected when match (which must
// accept every name in names, in any ASCII case) accepts it too.
func NewNameFilter(names []string, match func(name []byte) bool) *NameFilter {
	f := &NameFilter{match: match}
	for _, s := range names {
		n := len(s)
		if n == 0 {
			continue
		}
		f.maxLen = max(f.maxLen, n)
		if n >= maxMasked {
			continue
		}
		f.firsts[n] |= 1 << ((s[0] | 0x20) & 63)
		f.lasts[n] |= 1 << ((s[n-1] | 0x20) & 63)
	}
	f.jsonrpc = f.selects([]byte("jsonrpc"))
	return f
}

// NewTailFilter returns a filter for the names that end in one of tails,
// which must be ASCII: a member name passes when it is at least as long as
// a tail and ends in that tail's last byte, ignoring ASCII case, and it is
// selected when match (which must accept every name that ends in a tail,
// in any ASCII case) accepts it too. A name of more than 63 bytes is
// always selected.
func NewTailFilter(tails []string, match func(name []byte) bool) *NameFilter {
	f := &NameFilter{match: match, maxLen: maxMasked - 1, long: true}
	for _, s := range tails {
		if s == "" {
			continue
		}
		last := uint64(1) << ((s[len(s)-1] | 0x20) & 63)
		for n := len(s); n < maxMasked; n++ {
			f.firsts[n] = ^uint64(0)
			f.lasts[n] |= last
		}
	}
	f.jsonrpc = f.selects([]byte("jsonrpc"))
	return f
}

// passes reports whether the plainly spelled ASCII name b[start:end]
// passes f's first cut. Masks of lengths no name has are empty.
func (f *NameFilter) passes(b []byte, start, end int) bool {
	n := end - start
	if n >= maxMasked {
		return n <= f.maxLen
	}
	return f.firsts[n]&(1<<((b[start]|0x20)&63)) != 0 && f.lasts[n]&(1<<((b[end-1]|0x20)&63)) != 0
}

// selects reports whether f selects a plainly spelled ASCII name.
func (f *NameFilter) selects(name []byte) bool {
	switch {
	case len(name) == 0:
		return false
	case len(name) > f.maxLen:
		return f.long
	}
	return f.passes(name, 0, len(name)) && f.match(name)
}
