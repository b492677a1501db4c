// Package hub is the TUI's first screen: every session of the state
// directory, newest first, with its peers, counts, last activity and an
// activity sparkline; a label filter narrows the list and Enter opens the
// selected session.
//
// It sits beside the other screens (stream, inspector, overlay) under the
// app (internal/tui), reading only ui.SessionInfo values the source
// delivers. A Model is a value: Update and View are pure functions of it
// and do no I/O; it is not safe for concurrent use, like any Bubble Tea
// model.
package hub

import (
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Model is the hub screen.
type Model struct {
	th   *ui.Theme
	keys KeyMap

	sessions []ui.SessionInfo
	// rows holds the indices in sessions of the sessions that pass the
	// filter, in order. It is rebuilt, never changed in place, so copies
	// of a Model may share it.
	rows []int
	live int

	// sel is the selected index in rows (-1: none) and selID the
	// selected session, by which the selection survives new lists.
	sel   int
	selID sessionID
	// top is the first row on screen.
	top int
	// chosen reports whether the user moved the selection (a key, a
	// click, the filter). Until then the newest session, the first row,
	// stays selected and on screen as the backlog arrives.
	chosen bool

	filter    string
	filtering bool

	w, h  int
	now   time.Time
	dir   string
	hints []key.Binding
}

// sessionID names a session across lists.
type sessionID struct{ path, id string }

func idOf(s *ui.SessionInfo) sessionID { return sessionID{s.Path, s.ID} }

// New returns an empty hub drawn with th.
func New(th *ui.Theme) Model { return Model{th: th, keys: DefaultKeyMap(), sel: -1} }

// SetSessions gives the hub a newer list (ui.HubMsg), newest first. The
// selected session stays selected, and on the same screen line, wherever
// it moved in the list.
func (m Model) SetSessions(s []ui.SessionInfo) Model {
	m.sessions = s
	m.live = 0
	for i := range s {
		if s[i].Live {
			m.live++
		}
	}
	return m.refilter()
}

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model {
	m.w, m.h = w, h
	return m.scrollToSel(m.top)
}

// SetNow sets the time "last activity" is relative to (the app sends it
// on a tick), so that View stays a pure function of the model.
func (m Model) SetNow(t time.Time) Model { m.now = t; return m }

// SetDir sets the state directory the empty hub names.
func (m Model) SetDir(dir string) Model { m.dir = dir; return m }

// SetHints adds the app's own bindings (help, quit) to the footer's key
// hints, after the hub's.
func (m Model) SetHints(b []key.Binding) Model { m.hints = b; return m }

// Selected returns the selected session, if any.
func (m Model) Selected() (ui.SessionInfo, bool) {
	if m.sel < 0 || m.sel >= len(m.rows) {
		return ui.SessionInfo{}, false
	}
	return m.sessions[m.rows[m.sel]], true
}

// Filter returns the label filter ("" when none).
func (m Model) Filter() string { return m.filter }

// Capturing reports whether the screen takes every key (the label filter
// has focus), so the app must not act on global keys.
func (m Model) Capturing() bool { return m.filtering }

// Bindings lists the keys active now, for the help overlay and footer.
func (m Model) Bindings() []key.Binding {
	k := m.keys
	if m.filtering {
		return []key.Binding{k.KeepFilter, k.CancelFilter}
	}
	b := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if len(m.rows) > 0 {
		b = append(b, k.Open)
	}
	b = append(b, k.Filter)
	if m.filter != "" {
		b = append(b, k.ClearFilter)
	}
	return b
}
