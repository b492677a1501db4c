package redact

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/ohler55/ojg/jp"
	"github.com/ohler55/ojg/oj"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// pnode is a node of the trie of the locations path rules select in one
// message: member names and array indexes from the root.
type pnode struct {
	hit   bool
	names map[string]*pnode
	elems map[int]*pnode
}

// locate returns the trie of the values the path rules select in src, or
// nil when they select none.
func (r *rules) locate(src []byte) *pnode {
	data, err := oj.Parse(src)
	if err != nil {
		return nil
	}
	var root *pnode
	for _, x := range r.paths {
		for _, loc := range x.Locate(data, 0) {
			if root == nil {
				root = &pnode{}
			}
			root.insert(loc)
		}
	}
	return root
}

func (n *pnode) insert(loc jp.Expr) {
	for _, f := range loc {
		switch f := f.(type) {
		case jp.Child:
			if n.names == nil {
				n.names = map[string]*pnode{}
			}
			next := n.names[string(f)]
			if next == nil {
				next = &pnode{}
				n.names[string(f)] = next
			}
			n = next
		case jp.Nth:
			if n.elems == nil {
				n.elems = map[int]*pnode{}
			}
			next := n.elems[int(f)]
			if next == nil {
				next = &pnode{}
				n.elems[int(f)] = next
			}
			n = next
		}
	}
	n.hit = true
}

// mayMatch reports whether a rule could change line; false is exact, true
// may be wrong. It exists so that the common frame, which no key rule
// selects, is recorded without a tokenizer: it looks at the quoted run
// before every colon (which takes in every member name of a JSON line and
// every "key": of a text line) and compares it with the keys.
func (r *rules) mayMatch(line []byte, dir capture.Dir) bool {
	if r.values != nil || len(r.paths) > 0 {
		return true
	}
	if r.answers && dir == capture.S2C && (bytes.Contains(line, []byte("elicitation")) || bytes.Contains(line, []byte(`\u`))) {
		return true
	}
	answersC2S := r.answers && dir == capture.C2S
	if r.keys.empty() && !answersC2S {
		return false
	}
	if r.plain {
		if hit, clean := r.scanPlain(line, answersC2S); hit || clean {
			return hit
		}
	}
	for i := -1; ; {
		n := bytes.IndexByte(line[i+1:], ':')
		if n < 0 {
			return false
		}
		i += n + 1
		end := i - 1
		for end >= 0 && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r' || line[end] == '\n') {
			end--
		}
		if end <= 0 || line[end] != '"' {
			continue
		}
		start, flags := nameStart(line, end)
		if start < 0 {
			continue
		}
		name := line[start:end]
		if flags&nameEscaped != 0 || r.isKey(name) {
			return true
		}
		if answersC2S && isAnswerName(name) {
			return true
		}
	}
}

// nameEscaped is the flag nameStart returns for a name holding a
// backslash.
const nameEscaped = 1

// nameStart returns the index after the quote that opens the string
// closing at line[end], scanning back, and what the name holds; -1 when
// no quote opens it.
func nameStart(line []byte, end int) (int, int) {
	flags := 0
	for k := end - 1; k >= 0; k-- {
		switch c := line[k]; {
		case c == '"':
			return k + 1, flags
		case c == '\\':
			flags |= nameEscaped
		}
	}
	return -1, 0
}

// Byte masks for scanPlain.
const (
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
	lows        = 0x7f7f7f7f7f7f7f7f
	colons      = ':' * ones
	backslashes = '\\' * ones
)

// scanPlain is mayMatch for a line whose names can only be spelled
// plainly: it finds colons eight bytes at a time, and compares the last
// four bytes of the quoted run before each (folded to lower case) with the
// keys' before looking further. clean is false when the line holds a
// backslash (a name may then be spelled with escapes) or a byte beyond
// ASCII (U+017F folds to s, U+212A to k): mayMatch then judges it again.
func (r *rules) scanPlain(line []byte, answers bool) (hit, clean bool) {
	var special uint64
	i := 0
	for ; i+8 <= len(line); i += 8 {
		w := binary.LittleEndian.Uint64(line[i:])
		x, y := w^colons, w^backslashes
		special |= w&highs | ^(((y&lows)+lows)|y)&highs
		m := ^(((x & lows) + lows) | x) & highs // 0x80 where a byte is ':'
		for m != 0 {
			// Inline the common case, a compact name whose last four
			// bytes end no key: most colons end here.
			j := i + bits.TrailingZeros64(m)/8
			m &= m - 1
			if j >= 5 && line[j-1] == '"' {
				h := suffixHash(binary.LittleEndian.Uint32(line[j-5:]) | 0x20202020)
				if r.suffixes[h/64]&(1<<(h%64)) == 0 {
					continue
				}
			}
			if r.plainName(line, j, answers) {
				return true, true
			}
		}
	}
	for ; i < len(line); i++ {
		switch c := line[i]; {
		case c == ':' && r.plainName(line, i, answers):
			return true, true
		case c == '\\' || c >= 0x80:
			special = 1
		}
	}
	return false, special == 0
}

// plainName judges the quoted run before the colon at line[i].
func (r *rules) plainName(line []byte, i int, answers bool) bool {
	end := i - 1
	for end >= 0 && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r' || line[end] == '\n') {
		end--
	}
	if end < 4 || line[end] != '"' {
		return false
	}
	tail := binary.LittleEndian.Uint32(line[end-4:]) | 0x20202020
	if h := suffixHash(tail); r.suffixes[h/64]&(1<<(h%64)) == 0 {
		return false
	}
	start, _ := nameStart(line, end)
	if start < 0 {
		return false
	}
	name := line[start:end]
	if r.isKey(name) {
		return true
	}
	return answers && isAnswerName(name)
}

// suffixHash maps four folded bytes to a bit of rules.suffixes.
func suffixHash(tail uint32) uint32 { return tail * 0x9e3779b1 >> 22 }
