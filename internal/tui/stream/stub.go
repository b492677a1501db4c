// Package stream is the TUI's main screen: one row per call of a session.
//
// STUB: the contract the app builds on; the real screen replaces this file.
package stream

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Model is the stream screen.
type Model struct {
	th   *ui.Theme
	data ui.Data
	w, h int
	sel  int
}

// New returns an empty stream drawn with th.
func New(th *ui.Theme) Model { return Model{th: th, sel: -1} }

// SetData gives the screen a newer Data of its session.
func (m Model) SetData(d ui.Data) Model { m.data = d; return m }

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model { m.w, m.h = w, h; return m }

// Update handles keys, mouse, ui.JumpMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if j, ok := msg.(ui.JumpMsg); ok {
		m.sel = j.Call
	}
	return m, nil
}

// View draws the screen in exactly its size.
func (m Model) View() string {
	n := 0
	if m.data.Snap != nil {
		n = m.data.Snap.Calls.Len()
	}
	return fmt.Sprintf("stream: %d calls", n)
}

// Bindings lists the keys active now, for the help overlay and footer.
func (m Model) Bindings() []key.Binding { return nil }

// Selected is the selected call's index, or -1.
func (m Model) Selected() int { return m.sel }

// Capturing reports whether the screen takes every key (the filter bar
// has focus), so the app must not act on global keys.
func (m Model) Capturing() bool { return false }
