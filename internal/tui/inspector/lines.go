package inspector

import (
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// line is one row of a body as shown: a node's opening (or only) line, or
// the closing bracket of an unfolded container.
type line struct {
	node  int32
	close bool
}

// layout is a tree with its folds and the lines they leave visible. It is
// built once per fold change (never per frame drawn) and never modified
// after: a fold change makes a new one, so a Model stays a value.
type layout struct {
	t      *tree
	folded []bool
	lines  []line
	lineOf []int32 // a node's opening line, -1 while folded away
}

// newLayout lays t out with folded (nil: nothing folded), which it keeps.
func newLayout(t *tree, folded []bool) *layout {
	if folded == nil {
		folded = make([]bool, len(t.nodes))
	}
	l := &layout{t: t, folded: folded, lineOf: make([]int32, len(t.nodes))}
	l.flatten()
	return l
}

// flatten builds the visible lines from the folds.
func (l *layout) flatten() {
	nodes := l.t.nodes
	for i := range l.lineOf {
		l.lineOf[i] = -1
	}
	var open []int32
	for i := int32(0); i < int32(len(nodes)); {
		for len(open) > 0 && nodes[open[len(open)-1]].end <= i {
			l.lines = append(l.lines, line{node: open[len(open)-1], close: true})
			open = open[:len(open)-1]
		}
		l.lineOf[i] = int32(len(l.lines))
		l.lines = append(l.lines, line{node: i})
		n := &nodes[i]
		if n.container() && n.count > 0 && !l.folded[i] {
			open = append(open, i)
			i++
			continue
		}
		i = n.end
	}
	for k := len(open) - 1; k >= 0; k-- {
		l.lines = append(l.lines, line{node: open[k], close: true})
	}
}

// foldable reports whether node i is a non-empty container.
func (l *layout) foldable(i int32) bool {
	return i >= 0 && l.t.nodes[i].container() && l.t.nodes[i].count > 0
}

// toggled is l with node i's fold flipped.
func (l *layout) toggled(i int32) *layout {
	if !l.foldable(i) {
		return l
	}
	f := append([]bool(nil), l.folded...)
	f[i] = !f[i]
	return newLayout(l.t, f)
}

// foldedAll is l with every container below the root's members folded.
func (l *layout) foldedAll() *layout {
	f := make([]bool, len(l.t.nodes))
	for i := range l.t.nodes {
		f[i] = l.foldable(int32(i)) && l.t.nodes[i].depth >= 1
	}
	return newLayout(l.t, f)
}

// unfoldedAll is l with nothing folded.
func (l *layout) unfoldedAll() *layout { return newLayout(l.t, nil) }

// revealed is l with the ancestors of node i unfolded (l itself when
// none was folded).
func (l *layout) revealed(i int32) *layout {
	var f []bool
	for p := l.t.nodes[i].parent; p >= 0; p = l.t.nodes[p].parent {
		if l.folded[p] {
			if f == nil {
				f = append([]bool(nil), l.folded...)
			}
			f[p] = false
		}
	}
	if f == nil {
		return l
	}
	return newLayout(l.t, f)
}

// lineFor is the line of node i or, if it is folded away, of its nearest
// visible ancestor; 0 when i < 0.
func (l *layout) lineFor(i int32) int {
	for i >= 0 && l.lineOf[i] < 0 {
		i = l.t.nodes[i].parent
	}
	if i < 0 {
		return 0
	}
	return int(l.lineOf[i])
}

// nodeAt is the node of line k, -1 if none.
func (l *layout) nodeAt(k int) int32 {
	if k < 0 || k >= len(l.lines) {
		return -1
	}
	return l.lines[k].node
}

// path is the jq path of node i: .params.arguments.items[3].name, with
// names that are not identifiers quoted (.["a b"]); "." for the root.
func (t *tree) path(i int32) string {
	if i < 0 || t.nodes[i].kind == kindText {
		return "."
	}
	var segs []int32
	for ; i >= 0 && t.nodes[i].parent >= 0; i = t.nodes[i].parent {
		segs = append(segs, i)
	}
	if len(segs) == 0 {
		return "."
	}
	var sb strings.Builder
	for k := len(segs) - 1; k >= 0; k-- {
		n := &t.nodes[segs[k]]
		switch {
		case !n.named:
			sb.WriteString("[" + strconv.Itoa(int(n.index)) + "]")
		case identifier(n.key):
			sb.WriteString("." + n.key)
		default:
			q, err := jsontext.AppendQuote(nil, n.key)
			if err != nil { // invalid UTF-8: quoted with replacement runes
				q = strconv.AppendQuote(nil, strings.ToValidUTF8(n.key, "\uFFFD"))
			}
			sb.WriteString(`.[` + string(q) + `]`)
		}
	}
	return sb.String()
}

// identifier reports whether s may follow a dot in a jq path.
func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func clamp(v, lo, hi int) int {
	if v > hi {
		v = hi
	}
	if v < lo {
		v = lo
	}
	return v
}
