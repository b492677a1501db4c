// Package overlay holds the TUI's overlays over a session: the ledger,
// capabilities, tools (catalog) and findings, and the key help.
//
// STUB: the contract the app builds on; the real overlays replace this file.
package overlay

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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

// Model is one overlay.
type Model struct {
	th   *ui.Theme
	kind Kind
	data ui.Data
	w, h int
}

// New returns the overlay kind over d.
func New(th *ui.Theme, kind Kind, d ui.Data) Model { return Model{th: th, kind: kind, data: d} }

// SetData gives the overlay a newer Data (pending ledger rows update).
func (m Model) SetData(d ui.Data) Model { m.data = d; return m }

// SetSize sets the overlay's size in cells.
func (m Model) SetSize(w, h int) Model { m.w, m.h = w, h; return m }

// Update handles keys; Enter returns ui.JumpMsg, esc ui.BackMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { return m, nil }

// View draws the overlay in exactly its size.
func (m Model) View() string { return "overlay" }

// Bindings lists the keys active now.
func (m Model) Bindings() []key.Binding { return nil }

// Help is the "?" overlay: it lists bindings, grouped.
type Help struct {
	th     *ui.Theme
	groups [][]key.Binding
	w, h   int
}

// NewHelp returns the help over the active bindings, one group a screen.
func NewHelp(th *ui.Theme, groups ...[]key.Binding) Help { return Help{th: th, groups: groups} }

// SetSize sets the help's size in cells.
func (h Help) SetSize(w, hh int) Help { h.w, h.h = w, hh; return h }

// View draws the help in exactly its size.
func (h Help) View() string { return "help" }
