// Package inspector shows one call's frames as pretty, foldable,
// syntax-coloured JSON: the request and the response, each round of an MRTR
// operation, and the legacy requests nested under the call as jump targets.
//
// It sits between the ui package (Data, messages, Theme, Cell) and the app
// (internal/tui), which routes messages to it. Frames are read from the
// capture only inside the command Init (or a reload) returns; Update and
// View do no I/O. A Model is a value: Update returns a new one and never
// changes what an older one shows (a fold change builds a new layout).
// Bodies are laid out once per fold change and drawn line-virtualized, so a
// 1 MB string or a 50,000-element array costs View what a screenful does.
package inspector

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Panes of a round.
const (
	paneRequest = iota
	paneResponse
	paneNested
)

// paneID names one pane: a round's request, response or nested list.
type paneID struct{ round, pane int }

// view is where a pane is: its layout (nil for the nested list or a frame
// not read yet), the cursor line and the first line on screen.
type view struct {
	lay         *layout
	cursor, top int
}

// Model is the inspector screen for one call.
type Model struct {
	th   *ui.Theme
	keys KeyMap
	data ui.Data
	call int
	w, h int

	loaded bool
	err    string // the call could not be inspected
	plan   plan
	frames map[uint64]*frame // read so far; replaced, never modified
	views  map[paneID]view   // replaced on write
	round  int
	pane   int
	stale  bool // SetData saw an answer, a round or a nested request appear

	search search
}

// New returns the inspector for call (an index into d.Snap.Calls). Its
// Init reads the frames from the capture (d.Frame) as a command.
func New(th *ui.Theme, d ui.Data, call int) Model {
	return Model{th: th, keys: DefaultKeyMap(), data: d, call: call}
}

// Init starts reading the call's frames.
func (m Model) Init() tea.Cmd { return loadCmd(m.data, m.call, nil) }

// SetData gives the screen a newer Data. When the newer Data answers one of
// the calls shown, adds a round or a nested request, the screen is stale:
// Refresh (or Update with a ui.DataMsg, which does both) reads it again.
func (m Model) SetData(d ui.Data) Model {
	m.data = d
	if !m.loaded || m.err != "" || d.Snap == nil {
		return m
	}
	if m.changed(d) {
		m.stale = true
	} else {
		m.plan.seen = max(m.plan.seen, d.Snap.Calls.Len()) // scanned: the next Data costs only its own calls
	}
	return m
}

// Refresh returns the command that reads the frames a newer Data brought
// (see SetData), or nil when nothing changed.
func (m Model) Refresh() tea.Cmd {
	if !m.stale {
		return nil
	}
	have := make(map[uint64]bool, len(m.frames))
	for seq, f := range m.frames {
		if f.err == "" {
			have[seq] = true
		}
	}
	return loadCmd(m.data, m.call, have)
}

// changed reports whether d shows more of the inspected calls than the
// frames read: an answer, a new round, or a nested request among the calls
// not scanned yet. It costs the rounds plus those calls, never the whole
// session.
func (m Model) changed(d ui.Data) bool {
	n := d.Snap.Calls.Len()
	for _, rc := range m.plan.rounds {
		if rc >= n {
			return false
		}
		c := d.Snap.Calls.At(rc)
		if c.ResponseSeq != 0 && m.frames[c.ResponseSeq] == nil {
			return true
		}
		if c.Operation >= 0 && c.Operation < d.Snap.Operations.Len() &&
			len(d.Snap.Operations.At(c.Operation).Rounds) != len(m.plan.rounds) {
			return true
		}
	}
	for i := m.plan.seen; i < n; i++ {
		if p := d.Snap.Calls.At(i).Parent; p >= 0 && m.inPlan(p) {
			return true
		}
	}
	return false
}

// inPlan reports whether call c is one of the rounds shown.
func (m Model) inPlan(c int) bool {
	for _, rc := range m.plan.rounds {
		if rc == c {
			return true
		}
	}
	return false
}

// SetSize sets the screen's size in cells.
func (m Model) SetSize(w, h int) Model {
	m.w, m.h = max(w, 0), max(h, 0)
	if v, ok := m.views[m.cur()]; ok {
		m = m.withView(m.scrolled(v))
	}
	return m
}

// Capturing reports whether the screen takes every key (search input).
func (m Model) Capturing() bool { return m.search.typing }

// Bindings lists the keys active now.
func (m Model) Bindings() []key.Binding {
	k := m.keys
	if m.search.typing {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		}
	}
	bs := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Pair, k.PairBack}
	if len(m.plan.rounds) > 1 {
		bs = append(bs, k.NextRound, k.PrevRound)
	}
	if m.rootOf() >= 0 {
		bs = append(bs, k.Root)
	}
	if m.pane == paneNested {
		return append(bs, k.Open, k.Back)
	}
	bs = append(bs, k.Fold, k.FoldAll, k.UnfoldAll, k.Search)
	if len(m.search.matches) > 0 {
		bs = append(bs, k.Next, k.Prev)
	}
	return append(bs, k.CopyBody, k.CopyPath, k.Back)
}

// cur is the pane shown.
func (m Model) cur() paneID { return paneID{m.round, m.pane} }

// withView returns m with v as the shown pane's view.
func (m Model) withView(v view) Model {
	views := make(map[paneID]view, len(m.views)+1)
	for id, x := range m.views {
		views[id] = x
	}
	views[m.cur()] = v
	m.views = views
	return m
}
