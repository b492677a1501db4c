package hub

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// maxFilter bounds the label filter, in bytes.
const maxFilter = 256

// Update handles keys, the mouse (wheel; a click selects a row, a click
// on the selected row opens it: Y counts from the hub's first line),
// pastes into the filter and ui.HubMsg; Enter returns ui.OpenSessionMsg
// as a command.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.HubMsg:
		return m.SetSessions(msg.Sessions), nil
	case tea.KeyPressMsg:
		if m.filtering {
			return m.filterKey(msg), nil
		}
		return m.navKey(msg)
	case tea.PasteMsg:
		if m.filtering {
			return m.setFilter(m.filter + strings.ReplaceAll(msg.Content, "\n", " ")), nil
		}
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			return m.click(msg.Y)
		}
	case tea.MouseWheelMsg:
		return m.move(ui.Wheel(msg)), nil
	}
	return m, nil
}

// click selects the row on screen line y (0 is the hub's first line);
// a click on the selected row opens it.
func (m Model) click(y int) (Model, tea.Cmd) {
	f := m.frame()
	row := y - f.above()
	if row < 0 || row >= f.body || m.top+row >= len(m.rows) {
		return m, nil
	}
	if m.top+row == m.sel {
		return m.navKey(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	return m.move(m.top + row - m.sel), nil
}

// navKey handles a key while the list has focus.
func (m Model) navKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		return m.move(-1), nil
	case key.Matches(msg, k.Down):
		return m.move(1), nil
	case key.Matches(msg, k.PageUp):
		return m.move(-max(1, m.frame().body)), nil
	case key.Matches(msg, k.PageDown):
		return m.move(max(1, m.frame().body)), nil
	case key.Matches(msg, k.Top):
		return m.move(-len(m.rows)), nil
	case key.Matches(msg, k.Bottom):
		return m.move(len(m.rows)), nil
	case key.Matches(msg, k.Open):
		if s, ok := m.Selected(); ok {
			open := ui.OpenSessionMsg{Path: s.Path, ID: s.ID}
			return m, func() tea.Msg { return open }
		}
	case key.Matches(msg, k.Filter):
		m.filtering = true
	case key.Matches(msg, k.ClearFilter):
		if m.filter != "" {
			return m.setFilter(""), nil
		}
	}
	return m, nil
}

// filterKey handles a key while the filter line has focus: typing edits
// the filter, which applies at once.
func (m Model) filterKey(msg tea.KeyPressMsg) Model {
	k := m.keys
	switch {
	case key.Matches(msg, k.KeepFilter):
		m.filtering = false
		return m
	case key.Matches(msg, k.CancelFilter):
		m.filtering = false
		return m.setFilter("")
	}
	switch msg.Keystroke() {
	case "up":
		return m.move(-1)
	case "down":
		return m.move(1)
	case "backspace", "ctrl+h":
		_, n := utf8.DecodeLastRuneInString(m.filter)
		return m.setFilter(m.filter[:len(m.filter)-n])
	case "ctrl+u":
		return m.setFilter("")
	case "ctrl+w":
		f := strings.TrimRight(m.filter, " ")
		return m.setFilter(f[:strings.LastIndexByte(f, ' ')+1])
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		return m.setFilter(m.filter + msg.Text)
	}
	return m
}

// setFilter sets the label filter; a selection the filter hides moves to
// the first row that passes it.
func (m Model) setFilter(f string) Model {
	if len(f) > maxFilter {
		f = strings.ToValidUTF8(f[:maxFilter], "")
	}
	if f == m.filter {
		return m
	}
	m.filter = f
	m.chosen = true
	return m.rebuild(false)
}

// refilter rebuilds the rows for a new list of sessions; a selection that
// is gone keeps its place in the list.
func (m Model) refilter() Model { return m.rebuild(true) }

// rebuild computes the rows that pass the filter and finds the selected
// session among them, keeping it on the same screen line. When it is
// gone, keepIndex keeps the selection's index, else the first row is
// selected.
func (m Model) rebuild(keepIndex bool) Model {
	line := m.sel - m.top
	needle := strings.ToLower(m.filter)
	rows := make([]int, 0, len(m.sessions))
	found := -1
	for i := range m.sessions {
		s := &m.sessions[i]
		if needle != "" && !matches(s, needle) {
			continue
		}
		if m.sel >= 0 && found < 0 && idOf(s) == m.selID {
			found = len(rows)
		}
		rows = append(rows, i)
	}
	m.rows = rows
	switch {
	case len(rows) == 0:
		m.sel = -1
	case !m.chosen:
		// Sessions found while the backlog loads arrive in any order;
		// the newest is the one a person opens the hub for.
		m.sel, line = 0, 0
	case found >= 0:
		m.sel = found
	case keepIndex && m.sel >= 0:
		m.sel = min(m.sel, len(rows)-1)
	default:
		m.sel, line = 0, 0
	}
	if m.sel < 0 {
		m.top = 0
		return m
	}
	m.selID = idOf(&m.sessions[rows[m.sel]])
	return m.scrollToSel(m.sel - line)
}

// matches reports whether s's label (its id when it has none, as the
// row shows), client name or server name holds needle (lower case),
// ignoring case.
func matches(s *ui.SessionInfo, needle string) bool {
	label := s.Label
	if label == "" {
		label = s.ID
	}
	for _, f := range [...]string{label, s.Client.Name, s.Server.Name} {
		if strings.Contains(strings.ToLower(f), needle) {
			return true
		}
	}
	return false
}

// move moves the selection by d rows, within the list.
func (m Model) move(d int) Model {
	if len(m.rows) == 0 {
		return m
	}
	m.sel = max(0, min(len(m.rows)-1, m.sel+d))
	m.chosen = true
	m.selID = idOf(&m.sessions[m.rows[m.sel]])
	return m.scrollToSel(m.top)
}

// scrollToSel sets the first row on screen to top, moved as little as
// needed to show the selection and fill the screen.
func (m Model) scrollToSel(top int) Model {
	m.top = visibleTop(top, m.sel, len(m.rows), m.frame().body)
	return m
}

// visibleTop is top moved as little as needed so that row sel of n is
// among the body rows shown from it, and no screen line is left empty
// while rows are hidden above.
func visibleTop(top, sel, n, body int) int {
	if body <= 0 || sel < 0 {
		return 0
	}
	if sel < top {
		top = sel
	}
	if sel >= top+body {
		top = sel - body + 1
	}
	return max(0, min(top, n-body))
}
