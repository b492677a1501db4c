package inspector

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Update handles keys, mouse, newer Data and the frames it asked for; it
// returns ui.BackMsg (esc), ui.InspectMsg (root call, nested request) and
// ui.StatusMsg (copied) as commands.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		return m.onLoaded(msg), nil
	case ui.DataMsg:
		m = m.SetData(msg.Data)
		return m, m.Refresh()
	case tea.KeyPressMsg:
		if m.search.typing {
			return m.typeSearch(msg), nil
		}
		return m.onKey(msg)
	case tea.PasteMsg:
		if m.search.typing {
			m.search.input += msg.Content
		}
		return m, nil
	case tea.MouseWheelMsg:
		return m.move(ui.Wheel(msg)), nil
	}
	return m, nil
}

// onLoaded takes the frames a load command read.
func (m Model) onLoaded(msg LoadedMsg) Model {
	if msg.call != m.call {
		return m
	}
	first := !m.loaded
	m.loaded, m.stale, m.err = true, false, msg.err
	if msg.err != "" {
		return m
	}
	frames := make(map[uint64]*frame, len(m.frames)+len(msg.frames))
	for seq, f := range m.frames {
		frames[seq] = f
	}
	for seq, f := range msg.frames {
		frames[seq] = f
	}
	m.frames, m.plan = frames, msg.plan
	if first {
		m.round = msg.plan.start
	}
	m.round = clamp(m.round, 0, len(m.plan.rounds)-1)
	if m.search.query != "" {
		m = m.runSearch(false)
	}
	return m
}

// onKey handles a key outside the search input.
func (m Model) onKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Back):
		return m, func() tea.Msg { return ui.BackMsg{} }
	case key.Matches(msg, k.Up):
		return m.move(-1), nil
	case key.Matches(msg, k.Down):
		return m.move(1), nil
	case key.Matches(msg, k.PageUp):
		return m.move(-max(m.bodyHeight()-1, 1)), nil
	case key.Matches(msg, k.PageDown):
		return m.move(max(m.bodyHeight()-1, 1)), nil
	case key.Matches(msg, k.Top):
		return m.move(-1 << 30), nil
	case key.Matches(msg, k.Bottom):
		return m.move(1 << 30), nil
	case key.Matches(msg, k.Pair):
		return m.switchPane(1), nil
	case key.Matches(msg, k.PairBack):
		return m.switchPane(-1), nil
	case key.Matches(msg, k.NextRound):
		return m.switchRound(1), nil
	case key.Matches(msg, k.PrevRound):
		return m.switchRound(-1), nil
	case key.Matches(msg, k.Root):
		return m, m.rootCmd()
	}
	if m.pane == paneNested {
		if key.Matches(msg, k.Open) {
			return m, m.openNested()
		}
		return m, nil
	}
	return m.onBodyKey(msg)
}

// onBodyKey handles the keys of a frame pane.
func (m Model) onBodyKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Fold):
		return m.refold(func(l *layout, at int32) *layout { return l.toggled(at) }), nil
	case key.Matches(msg, k.FoldAll):
		return m.refold(func(l *layout, _ int32) *layout { return l.foldedAll() }), nil
	case key.Matches(msg, k.UnfoldAll):
		return m.refold(func(l *layout, _ int32) *layout { return l.unfoldedAll() }), nil
	case key.Matches(msg, k.Search):
		m.search.typing, m.search.input = true, ""
		return m, nil
	case key.Matches(msg, k.Next):
		return m.nextMatch(1), nil
	case key.Matches(msg, k.Prev):
		return m.nextMatch(-1), nil
	case key.Matches(msg, k.CopyBody):
		return m, m.copyBody()
	case key.Matches(msg, k.CopyPath):
		return m, m.copyPath()
	}
	return m, nil
}

// refold applies a fold change to the shown body, keeping the cursor on
// its node (or the nearest visible ancestor).
func (m Model) refold(f func(*layout, int32) *layout) Model {
	v, ok := m.curView()
	if !ok || v.lay == nil {
		return m
	}
	at := v.lay.nodeAt(v.cursor)
	v.lay = f(v.lay, at)
	v.cursor = v.lay.lineFor(at)
	return m.withView(m.scrolled(v))
}

// move moves the cursor by d lines (the nested list's by d rows).
func (m Model) move(d int) Model {
	v, ok := m.curView()
	if !ok {
		return m
	}
	v.cursor = clamp(v.cursor+d, 0, m.rows(v)-1)
	return m.withView(m.scrolled(v))
}

// rows is the number of rows of the shown pane.
func (m Model) rows(v view) int {
	if m.pane == paneNested {
		return len(m.nestedCalls())
	}
	if v.lay == nil {
		return 0
	}
	return len(v.lay.lines)
}

// scrolled moves v's first line so that the cursor is on screen.
func (m Model) scrolled(v view) view {
	h := max(m.bodyHeight(), 1)
	n := m.rows(v)
	v.cursor = clamp(v.cursor, 0, n-1)
	if v.cursor < v.top {
		v.top = v.cursor
	}
	if v.cursor >= v.top+h {
		v.top = v.cursor - h + 1
	}
	v.top = clamp(v.top, 0, max(n-h, 0))
	return v
}

// curView is the shown pane's view, with its layout once the frame is
// read; ok is false while there is nothing to show.
func (m Model) curView() (view, bool) {
	if !m.loaded || m.err != "" {
		return view{}, false
	}
	v := m.views[m.cur()]
	if m.pane == paneNested {
		return v, len(m.nestedCalls()) > 0
	}
	f := m.curFrame()
	if f == nil || f.lay == nil {
		return view{}, false
	}
	if v.lay == nil || v.lay.t != f.lay.t {
		v = view{lay: f.lay}
	}
	return v, true
}
