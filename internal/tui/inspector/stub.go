// Package inspector shows one call's frames as pretty, foldable JSON.
//
// STUB: the contract the app builds on; the real screen replaces this file.
package inspector

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Model is the inspector screen for one call.
type Model struct {
	th   *ui.Theme
	data ui.Data
	call int
	w, h int
}

// New returns the inspector for call (an index into d.Snap.Calls). Its
// Init reads the frames from the capture (d.Snap.Frame) as a command.
func New(th *ui.Theme, d ui.Data, call int) Model { return Model{th: th, data: d, call: call} }

// Init starts reading the call's frames.
func (m Model) Init() tea.Cmd { return nil }

// SetData gives the screen a newer Data (the call may have been answered).
func (m Model) SetData(d ui.Data) Model { m.data = d; return m }

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model { m.w, m.h = w, h; return m }

// Update handles keys, mouse and the frames it asked for; it returns
// ui.BackMsg (esc), ui.JumpMsg / ui.InspectMsg (paired frame, root call,
// next round) and ui.StatusMsg (copied) as commands.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { return m, nil }

// View draws the screen in exactly its size.
func (m Model) View() string { return "inspector" }

// Bindings lists the keys active now.
func (m Model) Bindings() []key.Binding { return nil }

// Capturing reports whether the screen takes every key (search input).
func (m Model) Capturing() bool { return false }
