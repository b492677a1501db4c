package stream

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Update handles keys, the mouse wheel and ui.JumpMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case PreviewMsg:
		return m.setPreviews(msg), nil
	case tea.KeyPressMsg:
		if m.editing {
			return m.edit(msg), nil
		}
		return m.key(msg)
	case tea.PasteMsg:
		if m.editing {
			m.bar += msg.Content
		}
		return m, nil
	case tea.MouseWheelMsg:
		if d := ui.Wheel(msg); d < 0 {
			return m.up(-d), nil
		} else if d > 0 {
			return m.down(d), nil
		}
	case ui.JumpMsg:
		return m.jump(msg), nil
	}
	return m, nil
}

// key handles a key while the filter bar has no focus.
func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	m.status = ""
	switch {
	case key.Matches(msg, k.Up):
		return m.up(1), nil
	case key.Matches(msg, k.Down):
		return m.down(1), nil
	case key.Matches(msg, k.PageUp):
		return m.up(max(m.body()-1, 1)), nil
	case key.Matches(msg, k.PageDown):
		return m.down(max(m.body()-1, 1)), nil
	case key.Matches(msg, k.Top):
		m.follow, m.sel = false, 0
		return m.reselect(row{}, false), nil
	case key.Matches(msg, k.Bottom):
		m.follow = true
		return m.reselect(row{}, false), nil
	case key.Matches(msg, k.Inspect):
		return m, m.inspect()
	case key.Matches(msg, k.Toggle):
		return m.expand(!m.isExpanded()), nil
	case key.Matches(msg, k.Expand):
		return m.expand(true), nil
	case key.Matches(msg, k.Collapse):
		return m.expand(false), nil
	case key.Matches(msg, k.Filter):
		m.editing, m.bar = true, m.applied
		return m, nil
	case key.Matches(msg, k.Notifications):
		m.notes = !m.notes
		return m.rebuild(), nil
	case key.Matches(msg, k.Stderr):
		m.stderr = !m.stderr
		return m.rebuild(), nil
	}
	return m, nil
}

// up moves the selection up n rows and pauses follow mode.
func (m Model) up(n int) Model {
	m.follow = false
	m.sel = max(m.sel-n, 0)
	return m.scroll()
}

// down moves the selection down n rows.
func (m Model) down(n int) Model {
	m.sel = max(min(m.sel+n, len(m.ix.rows)-1), 0)
	return m.scroll()
}

// inspect asks for the inspector on the selected call.
func (m Model) inspect() tea.Cmd {
	c := m.Selected()
	if c < 0 {
		return nil
	}
	return func() tea.Msg { return ui.InspectMsg{Call: c} }
}

// isExpanded reports whether the selected row's operation is expanded.
func (m Model) isExpanded() bool {
	r, ok := m.current()
	return ok && r.kind != rowLine && m.expanded[m.ix.tops[r.top].idx]
}

// expand expands or collapses the selected row's operation; collapsing
// from a round selects the operation.
func (m Model) expand(on bool) Model {
	r, ok := m.current()
	if !ok || r.kind == rowLine {
		return m
	}
	root := m.ix.tops[r.top].idx
	c := m.data.Snap.Calls.At(int(root))
	if c.Operation < 0 || m.expanded[root] == on {
		return m
	}
	if on {
		m.expanded[root] = true
	} else {
		delete(m.expanded, root)
	}
	m.ix.refresh(m.scope(), r.top)
	if r.kind == rowRound {
		r = row{kind: rowCall, top: r.top, idx: root}
	}
	m.sel, _ = m.ix.find(r)
	return m.scroll()
}

// edit handles a key while the filter bar has focus.
func (m Model) edit(msg tea.KeyPressMsg) Model {
	k := m.keys
	if m.grammar && msg.String() != "?" {
		m.grammar = false // any key closes the grammar, and acts
	}
	switch {
	case msg.String() == "?" && (m.bar == "" || m.grammar):
		m.grammar = !m.grammar
	case key.Matches(msg, k.Apply):
		return m.apply(m.bar)
	case key.Matches(msg, k.Cancel):
		m.editing, m.bar, m.barErr = false, m.applied, ""
	case key.Matches(msg, k.Clear):
		m.bar = ""
	case msg.Code == tea.KeyBackspace:
		if r := []rune(m.bar); len(r) > 0 {
			m.bar = string(r[:len(r)-1])
		}
	case msg.Text != "" && msg.Mod&^tea.ModShift == 0:
		m.bar += msg.Text
	}
	return m
}

// apply parses text and, when it parses, makes it the filter; a bad
// filter leaves the rows as they were and shows the error in the bar.
func (m Model) apply(text string) Model {
	f, err := filter.Parse(text)
	if err != nil {
		m.barErr = fmt.Sprintf("bad filter: %s", err)
		return m
	}
	m.editing, m.barErr, m.applied = false, "", text
	if len(f.String()) == 0 {
		f, m.applied = nil, ""
	}
	m.f = f
	return m.rebuild()
}

// jump selects the call or line a ui.JumpMsg names.
func (m Model) jump(j ui.JumpMsg) Model {
	if m.data.Snap == nil {
		return m
	}
	want, ok := m.target(j)
	if !ok {
		m.status = fmt.Sprintf("call %d not found", j.Call)
		if j.Seq != 0 {
			m.status = fmt.Sprintf("frame %d not found", j.Seq)
		}
		return m
	}
	m.follow = false
	m = m.reveal(want)
	if i, found := m.ix.find(want); found {
		m.sel = i
		return m.scroll()
	}
	if m.f != nil {
		m.f, m.applied, m.bar = nil, "", ""
		m = m.rebuild()
		m.status = fmt.Sprintf("filter cleared to show call %d", want.idx)
		if want.kind == rowLine {
			m.status = fmt.Sprintf("filter cleared to show frame %d", m.data.Lines[want.idx].Seq)
		}
	}
	m.sel, _ = m.ix.find(want)
	return m.scroll()
}
