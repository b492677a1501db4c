package stream

import (
	"sort"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// target returns the row a ui.JumpMsg names: call Call, or the call or
// line holding frame Seq.
func (m Model) target(j ui.JumpMsg) (row, bool) {
	if j.Seq == 0 {
		return m.callRow(j.Call)
	}
	calls := &m.data.Snap.Calls
	n := calls.Len()
	// Calls are indexed as their requests arrive, so by request seq.
	i := sort.Search(n, func(i int) bool { return calls.At(i).RequestSeq >= j.Seq })
	if i < n && calls.At(i).RequestSeq == j.Seq {
		return m.callRow(i)
	}
	lines := m.data.Lines
	k := sort.Search(len(lines), func(k int) bool { return lines[k].Seq >= j.Seq })
	for ; k < len(lines) && k < m.ix.lines && lines[k].Seq == j.Seq; k++ {
		if lines[k].Kind == ui.LineNotification {
			return m.lineRow(k)
		}
	}
	for i := range n {
		if c := calls.At(i); c.RequestSeq == j.Seq || c.ResponseSeq == j.Seq || c.CancelSeq == j.Seq {
			return m.callRow(i)
		}
	}
	return row{}, false
}

// callRow returns the row that shows call c.
func (m Model) callRow(c int) (row, bool) {
	if c < 0 || c >= len(m.ix.topOf) {
		return row{}, false
	}
	t := m.ix.topOf[c]
	switch {
	case m.ix.tops[t].idx == int32(c):
		return row{kind: rowCall, top: t, idx: int32(c)}, true
	case m.data.Snap.Calls.At(c).Operation >= 0:
		return row{kind: rowRound, top: t, idx: int32(c)}, true
	}
	return row{kind: rowChild, top: t, idx: int32(c)}, true
}

// lineRow returns the row that shows line k.
func (m Model) lineRow(k int) (row, bool) {
	t := sort.Search(len(m.ix.tops), func(t int) bool {
		e := m.ix.tops[t]
		return e.line && e.idx >= int32(k) || !e.line && m.data.Snap.Calls.At(int(e.idx)).RequestSeq > m.data.Lines[k].Seq
	})
	if t == len(m.ix.tops) || !m.ix.tops[t].line || m.ix.tops[t].idx != int32(k) {
		return row{}, false
	}
	return row{kind: rowLine, top: int32(t), idx: int32(k)}, true
}

// reveal makes want shown but for the filter: it expands its operation,
// or turns on the toggle of its kind of line.
func (m Model) reveal(want row) Model {
	switch want.kind {
	case rowRound:
		root := m.ix.tops[want.top].idx
		if !m.expanded[root] {
			m.expanded[root] = true
			m.ix.refresh(m.scope(), want.top)
		}
	case rowLine:
		l := &m.data.Lines[want.idx]
		if l.Kind == ui.LineNotification && !m.notes {
			m.notes = true
			return m.rebuild()
		}
		if l.Kind != ui.LineNotification && !m.stderr {
			m.stderr = true
			return m.rebuild()
		}
	}
	return m
}
