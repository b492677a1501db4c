// Package hub is the TUI's first screen: every session of the state
// directory, newest first.
//
// STUB: the contract the app builds on; the real screen replaces this file.
package hub

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Model is the hub screen.
type Model struct {
	th       *ui.Theme
	sessions []ui.SessionInfo
	w, h     int
}

// New returns an empty hub drawn with th.
func New(th *ui.Theme) Model { return Model{th: th} }

// SetSessions gives the hub a newer list (ui.HubMsg), newest first.
func (m Model) SetSessions(s []ui.SessionInfo) Model { m.sessions = s; return m }

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model { m.w, m.h = w, h; return m }

// Update handles keys; Enter returns ui.OpenSessionMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) { return m, nil }

// View draws the screen in exactly its size.
func (m Model) View() string { return fmt.Sprintf("hub: %d sessions", len(m.sessions)) }

// Bindings lists the keys active now.
func (m Model) Bindings() []key.Binding { return nil }

// Capturing reports whether the screen takes every key (label filter).
func (m Model) Capturing() bool { return false }
