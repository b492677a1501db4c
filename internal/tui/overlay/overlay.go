// Package overlay holds the TUI's overlays over a session: the
// elicitation ledger, the capabilities, the tools (the catalog with its
// call statistics) and the findings by rule, and the key help. Each is a
// full-screen list with a title and selectable rows.
//
// It sits beside the other screens of internal/tui: it reads a ui.Data
// (a store snapshot) and the rules registry, does no I/O, and navigates
// only by returning ui messages (JumpMsg, BackMsg, StatusMsg) as commands.
// A Model is a value: Update and SetData return a new one; it is not safe
// for concurrent use, and needs none (Bubble Tea calls it from one
// goroutine).
package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Kind names an overlay.
type Kind int

// The overlays.
const (
	Ledger Kind = iota + 1
	Capabilities
	Tools
	Findings
)

// Options are the overlays' knobs; the zero value (or nil) means defaults.
type Options struct {
	// Rules is the effective registry (the user's [rules] applied) the
	// findings overlay takes each rule's summary, help, spec and severity
	// from; nil means rules.Default().
	Rules *finding.Registry
	// Keys are the bindings; nil means DefaultKeyMap().
	Keys *KeyMap
}

// Model is one overlay.
type Model struct {
	th   *ui.Theme
	keys KeyMap
	reg  *finding.Registry
	kind Kind
	data ui.Data
	w, h int
	cur  cursor

	ledger     ledgerState // Ledger
	caps       []capLine   // Capabilities
	tools      []toolRow   // Tools
	toolsCache toolsState  // Tools
	finds      findState   // Findings
}

// New returns the overlay kind over d, with default options.
func New(th *ui.Theme, kind Kind, d ui.Data) Model { return NewWith(th, kind, d, nil) }

// NewWith returns the overlay kind over d with opts (nil means defaults).
func NewWith(th *ui.Theme, kind Kind, d ui.Data, opts *Options) Model {
	m := Model{th: th, kind: kind, keys: DefaultKeyMap()}
	if opts != nil && opts.Keys != nil {
		m.keys = *opts.Keys
	}
	if opts != nil && opts.Rules != nil {
		m.reg = opts.Rules
	} else {
		m.reg = rules.Default()
	}
	m.keys.Jump.SetEnabled(kind == Ledger || kind == Findings)
	return m.SetData(d)
}

// Kind returns which overlay m is.
func (m Model) Kind() Kind { return m.kind }

// SetData gives the overlay a newer Data: pending ledger rows update, and
// the selection stays on the same row.
func (m Model) SetData(d ui.Data) Model {
	if d.Snap == nil {
		m.data = d
		return m
	}
	switch m.kind {
	case Ledger:
		m = m.setLedger(d)
	case Capabilities:
		m.caps = capLines(d.Snap)
	case Tools:
		m = m.setTools(d)
	case Findings:
		m = m.setFindings(d)
	}
	m.data = d
	m.cur = m.cur.clamp(m.rows(), m.listHeight())
	return m
}

// SetSize sets the overlay's size in cells.
func (m Model) SetSize(w, h int) Model {
	m.w, m.h = max(w, 0), max(h, 0)
	m.cur = m.cur.clamp(m.rows(), m.listHeight())
	return m
}

// Selected returns the index of the selected row.
func (m Model) Selected() int { return m.cur.sel }

// Update handles keys and the mouse wheel; Enter returns ui.JumpMsg (the
// ledger row's root call, the finding's call and frame), esc and q
// ui.BackMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	n, lh := m.rows(), m.listHeight()
	switch msg := msg.(type) {
	case ui.DataMsg:
		return m.SetData(msg.Data), nil
	case tea.MouseWheelMsg:
		m.cur = m.cur.wheel(ui.Wheel(msg), n, lh)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Back):
			return m, send(ui.BackMsg{})
		case key.Matches(msg, m.keys.Jump):
			return m, m.jump()
		case key.Matches(msg, m.keys.Up):
			m.cur = m.cur.move(-1, n, lh)
		case key.Matches(msg, m.keys.Down):
			m.cur = m.cur.move(1, n, lh)
		case key.Matches(msg, m.keys.PageUp):
			m.cur = m.cur.move(-max(lh-1, 1), n, lh)
		case key.Matches(msg, m.keys.PageDown):
			m.cur = m.cur.move(max(lh-1, 1), n, lh)
		case key.Matches(msg, m.keys.Top):
			m.cur = m.cur.move(-n, n, lh)
		case key.Matches(msg, m.keys.Bottom):
			m.cur = m.cur.move(n, n, lh)
		}
	}
	return m, nil
}

// jump is the command Enter gives on the selected row, nil for none.
func (m Model) jump() tea.Cmd {
	if m.cur.sel >= m.rows() {
		return nil
	}
	switch m.kind {
	case Ledger:
		return m.ledgerJump()
	case Findings:
		return m.findingJump()
	}
	return nil
}

// Bindings lists the keys active now.
func (m Model) Bindings() []key.Binding { return m.keys.bindings() }

// rows is the number of rows of the list.
func (m Model) rows() int {
	switch m.kind {
	case Ledger:
		if m.data.Snap == nil {
			return 0
		}
		return m.data.Snap.Ledger.Len()
	case Capabilities:
		return len(m.caps)
	case Tools:
		return len(m.tools)
	case Findings:
		return m.finds.rows
	}
	return 0
}

// header reports whether the overlay has a column header line.
func (m Model) header() bool { return (m.kind == Ledger || m.kind == Tools) && m.h >= 4 }

// detail is the number of lines under the list describing the selected
// row (dropped when the overlay is short).
func (m Model) detail() int {
	if m.h < 10 {
		return 0
	}
	switch m.kind {
	case Ledger:
		return 3
	case Findings:
		if m.h < 20 {
			return 2
		}
		return 5
	}
	return 0
}

// listHeight is the number of list rows shown.
func (m Model) listHeight() int {
	h := m.h - 1 - m.detail()
	if m.header() {
		h--
	}
	return max(h, 0)
}

// View draws the overlay in exactly its size.
func (m Model) View() string {
	if m.h == 0 {
		return ""
	}
	blank := strings.Repeat(" ", m.w)
	lines := make([]string, 0, m.h)
	lines = append(lines, ui.Pad(m.title(), m.w))
	if m.header() {
		lines = append(lines, m.headerLine()) // as wide as the rows
	}
	n, lh := m.rows(), m.listHeight()
	for i := m.cur.top; i < min(m.cur.top+lh, n); i++ {
		lines = append(lines, m.row(i, i == m.cur.sel))
	}
	if n == 0 && lh > 0 {
		lines = append(lines, ui.Pad(m.th.Dim.Render(ui.Cell(m.empty(), m.w)), m.w))
	}
	detail := m.detailLines()
	for len(lines) < m.h-len(detail) {
		lines = append(lines, blank)
	}
	for _, l := range detail {
		lines = append(lines, ui.Pad(l, m.w))
	}
	for len(lines) < m.h {
		lines = append(lines, blank)
	}
	return strings.Join(lines[:m.h], "\n")
}

// title is the first line: the overlay's name and its counts.
func (m Model) title() string {
	var t string
	switch m.kind {
	case Ledger:
		t = m.ledgerTitle()
	case Capabilities:
		t = m.th.Title.Render("Capabilities")
	case Tools:
		t = m.toolsTitle()
	case Findings:
		t = m.findingsTitle()
	}
	if m.data.Live {
		t += " " + m.th.Live.Render("● live")
	}
	return t
}

func (m Model) headerLine() string {
	switch m.kind {
	case Ledger:
		return m.renderHeader(ledgerHeader(m.w))
	case Tools:
		return m.renderHeader(toolsHeader(m.w))
	}
	return ""
}

func (m Model) row(i int, selected bool) string {
	var cs []cell
	switch m.kind {
	case Ledger:
		cs = m.ledgerCells(i)
	case Capabilities:
		cs = m.capCells(i)
	case Tools:
		cs = m.toolCells(i)
	case Findings:
		cs = m.findingCells(i)
	}
	if selected {
		return m.renderSelected(cs)
	}
	return m.renderCells(cs, nil)
}

func (m Model) empty() string {
	switch m.kind {
	case Ledger:
		return "no elicitations in this session"
	case Tools:
		return "the server listed nothing and no tool was called"
	case Findings:
		return "no findings"
	}
	return ""
}

func (m Model) detailLines() []string {
	if m.detail() == 0 || m.cur.sel >= m.rows() {
		return nil
	}
	switch m.kind {
	case Ledger:
		return m.ledgerDetail()
	case Findings:
		return m.findingDetail()
	}
	return nil
}

// send returns a command that delivers msg.
func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
