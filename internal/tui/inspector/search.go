package inspector

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// Where a node matches the search.
const (
	hitKey   = 1 << iota // in its member name
	hitValue             // in its value (scalars and text lines)
)

// search is the body search: the input being typed, and the matches of
// the last query in the shown pane.
type search struct {
	typing bool
	input  string
	query  string // lower-cased
	// matches lists the matching nodes in document order; at is the
	// current one; hits[i] says where node i matches (nil: no search).
	matches []int32
	at      int
	hits    []uint8
	lay     *layout // the layout of the tree the matches belong to
}

// typeSearch handles a key while the search input is open.
func (m Model) typeSearch(msg tea.KeyPressMsg) Model {
	switch msg.String() {
	case "esc":
		m.search.typing = false
	case "enter":
		m.search.typing = false
		m.search.query = strings.ToLower(m.search.input)
		m = m.runSearch(true)
	case "backspace":
		s := m.search.input
		_, n := utf8.DecodeLastRuneInString(s)
		m.search.input = s[:len(s)-n]
	case "ctrl+u":
		m.search.input = ""
	default:
		if msg.Text != "" {
			m.search.input += msg.Text
		}
	}
	return m
}

// runSearch finds the query in the shown body: every member name and
// value, folded ones included. With jump, the cursor goes to the first
// match at or after it, unfolding what hides it.
func (m Model) runSearch(jump bool) Model {
	q := m.search.query
	s := search{query: q}
	v, ok := m.curView()
	if q == "" || !ok || v.lay == nil {
		m.search = s
		return m
	}
	nodes := v.lay.t.nodes
	s.hits, s.lay = make([]uint8, len(nodes)), v.lay
	for i := range nodes {
		n := &nodes[i]
		var h uint8
		if n.named && containsFold(n.key, q) {
			h |= hitKey
		}
		if !n.container() && containsFold(n.text, q) {
			h |= hitValue
		}
		if h != 0 {
			s.hits[i] = h
			s.matches = append(s.matches, int32(i))
		}
	}
	m.search = s
	if !jump || len(s.matches) == 0 {
		return m
	}
	at := v.lay.nodeAt(v.cursor)
	for k, n := range s.matches {
		if n >= at {
			m.search.at = k
			break
		}
	}
	return m.showMatch()
}

// nextMatch moves to the next (d 1) or previous (d -1) match, wrapping.
func (m Model) nextMatch(d int) Model {
	n := len(m.search.matches)
	if n == 0 {
		return m
	}
	m.search.at = ((m.search.at+d)%n + n) % n
	return m.showMatch()
}

// showMatch unfolds what hides the current match and puts the cursor on it.
func (m Model) showMatch() Model {
	v, ok := m.curView()
	if !ok || v.lay == nil || v.lay.t != m.search.lay.t {
		return m
	}
	i := m.search.matches[m.search.at]
	v.lay = v.lay.revealed(i)
	m.search.lay = v.lay
	v.cursor = v.lay.lineFor(i)
	return m.withView(m.scrolled(v))
}

// containsFold reports whether s holds q (lower-case) ignoring case,
// without copying s when it is ASCII.
func containsFold(s, q string) bool {
	if q == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	for i := 0; i+len(q) <= len(s); i++ {
		if asciiEqualFold(s[i:i+len(q)], q) {
			return true
		}
	}
	return false
}

// asciiEqualFold compares ASCII a with lower-case b.
func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}
