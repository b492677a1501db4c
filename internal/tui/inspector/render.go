package inspector

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/units"
)

// body draws n rows of the shown pane: only the lines on screen are built.
func (m Model) body(n int) []string {
	if n <= 0 {
		return nil
	}
	rows := make([]string, 0, n)
	v, ok := m.curView()
	switch {
	case !ok:
		rows = append(rows, m.placeholder())
	case m.pane == paneNested:
		calls := m.nestedCalls()
		for k := v.top; k < len(calls) && calls[k] < m.data.Snap.Calls.Len() && len(rows) < n; k++ {
			rows = append(rows, m.nestedRow(calls[k], k == v.cursor))
		}
	default:
		for k := v.top; k < len(v.lay.lines) && len(rows) < n; k++ {
			rows = append(rows, m.jsonRow(v.lay, k, k == v.cursor))
		}
	}
	for len(rows) < n {
		rows = append(rows, "")
	}
	return rows
}

// placeholder says why the pane is empty.
func (m Model) placeholder() string {
	var b segs
	b.reset(m.w)
	c, ok := m.roundCall()
	f := m.curFrame()
	switch {
	case m.err != "" || !ok:
		b.add(m.th.Dim, "loading…")
	case f != nil && f.err != "":
		b.add(m.th.Error, "cannot read the frame: "+f.err)
	case m.pane == paneResponse && c.ResponseSeq == 0:
		b.add(m.th.Dim, "no response yet: the call is ")
		b.add(m.th.Status(c.Status), c.Status)
	case m.pane == paneNested:
		b.add(m.th.Dim, "no nested requests")
	default:
		b.add(m.th.Dim, "loading…")
	}
	return b.String()
}

// nestedRow is one nested legacy request: method, id, status, duration.
func (m Model) nestedRow(ci int, selected bool) string {
	c := m.data.Snap.Calls.At(ci)
	var b segs
	b.reset(m.w)
	base := lipgloss.Style{}
	if selected {
		base = m.th.Selected
	}
	b.add(base, cursorMark(selected)+fmt.Sprintf("#%d ", ci))
	b.add(m.th.Title.Inherit(base), c.Method)
	b.add(m.th.Dim.Inherit(base), "  id ")
	b.add(base, c.ID.Raw()+"  ")
	b.add(m.th.Status(c.Status).Inherit(base), c.Status)
	if c.ResponseSeq != 0 {
		b.add(base, "  "+units.Millis(c.DurationMS))
	}
	return m.finish(&b, base, selected)
}

// jsonRow draws line k of a body: indent, name, value or bracket, comma.
func (m Model) jsonRow(l *layout, k int, selected bool) string {
	ln := l.lines[k]
	n := &l.t.nodes[ln.node]
	base := lipgloss.Style{}
	if selected {
		base = m.th.Selected
	}
	hit := m.hitAt(l, ln)
	var b segs
	b.reset(m.w)
	if n.kind == kindText {
		b.addBase(base, selected, cursorMark(selected))
		b.add(m.mark(base, hit&hitValue != 0), n.text)
		return m.finish(&b, base, selected)
	}
	b.addBase(base, selected, cursorMark(selected)+strings.Repeat(" ", min(2*int(n.depth), max(m.w/2, 0))))
	th, punct := m.th, m.th.JSONPunct.Inherit(base)
	if ln.close {
		b.add(punct, string(closer(n.kind))+comma(n))
		return m.finish(&b, base, selected)
	}
	if n.named {
		k := m.mark(th.JSONKey.Inherit(base), hit&hitKey != 0)
		b.addQuoted(k, n.key)
		b.add(punct, ": ")
	}
	m.value(&b, l, ln.node, base, hit&hitValue != 0)
	if !l.foldable(ln.node) || l.folded[ln.node] {
		b.add(punct, comma(n)) // an open bracket's comma goes on its closing line
	}
	return m.finish(&b, base, selected)
}

// value draws node i's value part.
func (m Model) value(b *segs, l *layout, i int32, base lipgloss.Style, hit bool) {
	n := &l.t.nodes[i]
	th, punct := m.th, m.th.JSONPunct.Inherit(base)
	switch n.kind {
	case kindObject, kindArray:
		switch {
		case n.count == 0:
			b.add(punct, string(n.kind)+string(closer(n.kind)))
		case l.folded[i]:
			b.add(punct, string(n.kind)+"…"+string(closer(n.kind)))
			b.add(th.Dim.Inherit(base), " "+members(n))
		default:
			b.add(punct, string(n.kind))
		}
	case kindString:
		st := m.mark(th.JSONString.Inherit(base), hit)
		b.addQuoted(st, n.text)
	case kindNumber:
		b.add(m.mark(th.JSONNumber.Inherit(base), hit), n.text)
	case kindTrue, kindFalse:
		b.add(m.mark(th.JSONBool.Inherit(base), hit), n.text)
	default:
		b.add(m.mark(th.JSONNull.Inherit(base), hit), n.text)
	}
}

// hitAt says where the node of line ln matches the search, 0 when the
// search does not belong to this layout's tree.
func (m Model) hitAt(l *layout, ln line) uint8 {
	if ln.close || m.search.lay == nil || m.search.lay.t != l.t {
		return 0
	}
	return m.search.hits[ln.node]
}

// mark highlights a search match.
func (m Model) mark(st lipgloss.Style, hit bool) lipgloss.Style {
	if hit {
		return st.Reverse(true)
	}
	return st
}

// finish pads the selected row to the width with its background.
func (m Model) finish(b *segs, base lipgloss.Style, selected bool) string {
	if selected && b.left > 0 {
		b.sb.WriteString(base.Render(strings.Repeat(" ", b.left)))
	}
	return b.String()
}

// cursorMark is the gutter: ">" on the cursor line, for terminals that
// show no background colour.
func cursorMark(selected bool) string {
	if selected {
		return ">"
	}
	return " "
}

func closer(kind byte) byte {
	if kind == kindObject {
		return '}'
	}
	return ']'
}

func comma(n *node) string {
	if n.last {
		return ""
	}
	return ","
}

// members describes a folded container: "12 keys", "3 items".
func members(n *node) string {
	unit := "items"
	if n.kind == kindObject {
		unit = "keys"
	}
	if n.count == 1 {
		unit = unit[:len(unit)-1]
	}
	return fmt.Sprintf("%d %s", n.count, unit)
}
