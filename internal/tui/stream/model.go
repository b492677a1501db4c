// Package stream is the TUI's main screen: one row per call of a session,
// in order. An MRTR operation is one row whose rounds expand; a legacy
// server request nests under the call it interrupted; notifications and
// stderr lines interleave when toggled on; the filter bar narrows the
// rows (internal/filter).
//
// It sits among the screens, below the app (internal/tui), and reads a
// ui.Data (a store snapshot). The rows are virtual: an index of what is
// shown, grown as newer Data arrive, and only the visible window is drawn,
// reading each call afresh from the snapshot. Update and View do no I/O.
// A Model holds its index by pointer: use only the Model an Update or Set
// method returns, from one goroutine.
package stream

import (
	"charm.land/bubbles/v2/key"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Model is the stream screen.
type Model struct {
	th   *ui.Theme
	keys KeyMap
	data ui.Data
	w, h int

	ix       *index
	fx       *facts
	head     headline       // of the last Data not Loading
	pv       *previews      // the answer column's result texts
	expanded map[int32]bool // operations expanded, by root call

	f       *filter.Filter // the applied filter; nil for none
	applied string         // its text
	bar     string         // the bar's text while editing
	editing bool
	grammar bool   // the filter grammar shows in place of the rows (? on an empty bar)
	barErr  string // the last bad filter's error

	notes, stderr bool // notifications, stderr lines and notes shown

	sel, off int  // selected row, first row drawn
	follow   bool // keep the last row selected as rows arrive
	status   string
}

// New returns an empty stream drawn with th, following.
func New(th *ui.Theme) Model {
	return Model{th: th, keys: DefaultKeyMap(), ix: &index{}, fx: &facts{}, pv: newPreviews(),
		expanded: map[int32]bool{}, follow: true}
}

// SetData gives the screen a newer Data of its session. When d continues
// the Data the screen has (the same session, as many calls and lines or
// more) it costs what changed: the new calls and lines, the calls that
// were unanswered, the ledger rows that were pending. Another session
// resets the screen.
func (m Model) SetData(d ui.Data) Model {
	m.data = d
	if d.Snap == nil {
		m.ix, m.fx, m.sel, m.off = &index{}, &facts{}, 0, 0
		return m
	}
	cur, ok := m.current()
	if !m.ix.fits(d.Snap, d.Lines) {
		m.ix, m.fx, m.expanded, m.pv = &index{session: d.Snap.Session.ID}, &facts{}, map[int32]bool{}, newPreviews()
		ok = false
	}
	if !d.Loading && m.head.snap != d.Snap {
		// The counts of a capture read half-way are not final: the header
		// says how far the read is instead (Data.LoadingText).
		m.head = headlineOf(d.Snap)
	}
	dirty := m.fx.update(d.Snap)
	sc := m.scope()
	m.ix.grow(sc, dirty)
	return m.reselect(cur, ok)
}

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model {
	m.w, m.h = max(w, 0), max(h, 0)
	return m.scroll()
}

// Bindings lists the keys active now, for the help overlay and footer.
func (m Model) Bindings() []key.Binding {
	if m.editing {
		return m.keys.editing()
	}
	return m.keys.browsing()
}

// Selected is the selected call's index (for a line, the call it
// concerns), or -1.
func (m Model) Selected() int {
	r, ok := m.current()
	switch {
	case !ok:
		return -1
	case r.kind == rowLine:
		return m.data.Lines[r.idx].Call
	}
	return int(r.idx)
}

// Capturing reports whether the screen takes every key (the filter bar
// has focus), so the app must not act on global keys.
func (m Model) Capturing() bool { return m.editing }

// Following reports whether follow mode is on: the last row stays
// selected as rows arrive.
func (m Model) Following() bool { return m.follow }

// Filter returns the text of the applied filter ("" for none).
func (m Model) Filter() string { return m.applied }

// Rows returns the number of rows shown (the filter and toggles applied).
func (m Model) Rows() int { return len(m.ix.rows) }

// scope returns what building rows needs, from the model's state.
func (m Model) scope() *scope {
	return &scope{snap: m.data.Snap, lines: m.data.Lines, f: m.f, notes: m.notes, stderr: m.stderr,
		expanded: m.expanded, facts: m.fx}
}

// current returns the selected row.
func (m Model) current() (row, bool) {
	if m.sel < 0 || m.sel >= len(m.ix.rows) {
		return row{}, false
	}
	return m.ix.rows[m.sel], true
}

// reselect selects the last row when following, else row cur again (or
// the nearest where it was), and scrolls it into view.
func (m Model) reselect(cur row, ok bool) Model {
	n := len(m.ix.rows)
	switch {
	case m.follow || n == 0:
		m.sel = n - 1
	case ok:
		m.sel, _ = m.ix.find(cur)
	}
	m.sel = min(max(m.sel, 0), n-1)
	return m.scroll()
}

// rebuild rebuilds the rows (the filter, a toggle or the data changed)
// and keeps the selection.
func (m Model) rebuild() Model {
	cur, ok := m.current()
	if m.data.Snap != nil {
		m.ix.rebuild(m.scope())
	}
	return m.reselect(cur, ok)
}

// body is the number of rows the screen draws.
func (m Model) body() int { return max(m.h-chrome, 0) }

// scroll moves the window so the selection is in it.
func (m Model) scroll() Model {
	n, b := len(m.ix.rows), m.body()
	if m.sel >= 0 && m.sel < m.off {
		m.off = m.sel
	}
	if b > 0 && m.sel >= m.off+b {
		m.off = m.sel - b + 1
	}
	m.off = max(min(m.off, n-b), 0)
	return m
}
