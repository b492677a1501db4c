package inspector

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// roundCall is the call of the shown round, from the newest Data; ok is
// false before the frames are read.
func (m Model) roundCall() (store.Call, bool) {
	if m.round < 0 || m.round >= len(m.plan.rounds) || m.data.Snap == nil {
		return store.Call{}, false
	}
	rc := m.plan.rounds[m.round]
	if rc >= m.data.Snap.Calls.Len() {
		return store.Call{}, false
	}
	return m.data.Snap.Calls.At(rc), true
}

// curSeq is the seq of the shown frame pane's frame, 0 when it has none
// (a request not answered yet, or the nested list).
func (m Model) curSeq() uint64 {
	c, ok := m.roundCall()
	switch {
	case !ok:
		return 0
	case m.pane == paneRequest:
		return c.RequestSeq
	case m.pane == paneResponse:
		return c.ResponseSeq
	}
	return 0
}

// curFrame is the shown frame, nil while unread or absent.
func (m Model) curFrame() *frame {
	if seq := m.curSeq(); seq != 0 {
		return m.frames[seq]
	}
	return nil
}

// nestedCalls lists the legacy requests nested under the shown round.
func (m Model) nestedCalls() []int {
	if m.round < 0 || m.round >= len(m.plan.nested) {
		return nil
	}
	return m.plan.nested[m.round]
}

// switchPane moves to the next (d 1) or previous (d -1) pane of the round:
// request, response, and the nested list when there is one.
func (m Model) switchPane(d int) Model {
	n := 2
	if len(m.nestedCalls()) > 0 {
		n = 3
	}
	m.pane = ((m.pane+d)%n + n) % n
	return m.afterSwitch()
}

// switchRound moves to the next (d 1) or previous (d -1) round.
func (m Model) switchRound(d int) Model {
	r := clamp(m.round+d, 0, len(m.plan.rounds)-1)
	if r == m.round || r < 0 {
		return m
	}
	m.round = r
	if m.pane == paneNested && len(m.nestedCalls()) == 0 {
		m.pane = paneRequest
	}
	return m.afterSwitch()
}

// afterSwitch redoes the search on the pane now shown.
func (m Model) afterSwitch() Model {
	if m.search.query != "" {
		m = m.runSearch(false)
	}
	return m
}

// rootOf is the call r jumps to: the operation's root for a round that is
// not it, the interrupted call for a nested legacy request; -1 if none.
func (m Model) rootOf() int {
	c, ok := m.roundCall()
	if !ok {
		return -1
	}
	if c.Operation >= 0 && c.Operation < m.data.Snap.Operations.Len() {
		if root := m.data.Snap.Operations.At(c.Operation).Root; root != c.Index || m.call != root {
			return root
		}
	}
	if c.Parent >= 0 {
		return c.Parent
	}
	return -1
}

// rootCmd asks for the inspector on the root call.
func (m Model) rootCmd() tea.Cmd {
	root := m.rootOf()
	if root < 0 {
		return status("this call is a root call: no operation or interrupted call to jump to", false)
	}
	return func() tea.Msg { return ui.InspectMsg{Call: root} }
}

// openNested asks for the inspector on the nested request under the cursor.
func (m Model) openNested() tea.Cmd {
	calls := m.nestedCalls()
	v := m.views[m.cur()]
	if v.cursor < 0 || v.cursor >= len(calls) {
		return nil
	}
	c := calls[v.cursor]
	return func() tea.Msg { return ui.InspectMsg{Call: c} }
}

// status returns a command that shows text on the status line.
func status(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return ui.StatusMsg{Text: text, Err: isErr} }
}
