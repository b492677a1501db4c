package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// HelpGroup is a titled group of bindings in the help.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
}

// Help is the "?" overlay: it lists exactly the enabled bindings it was
// given, grouped, in columns when they do not fit one.
type Help struct {
	th     *ui.Theme
	groups []HelpGroup
	w, h   int
	top    int // first line shown when even the columns do not fit
}

// NewHelp returns the help over the active bindings, one untitled group a
// screen.
func NewHelp(th *ui.Theme, groups ...[]key.Binding) Help {
	gs := make([]HelpGroup, len(groups))
	for i, g := range groups {
		gs[i] = HelpGroup{Bindings: g}
	}
	return NewHelpGroups(th, gs...)
}

// NewHelpGroups returns the help over titled groups of bindings.
func NewHelpGroups(th *ui.Theme, groups ...HelpGroup) Help {
	return Help{th: th, groups: groups}
}

// SetSize implements Overlay.
func (h Help) SetSize(w, hh int) Overlay { h.w, h.h = max(w, 0), max(hh, 0); return h }

// SetData implements Overlay: the help shows no Data.
func (h Help) SetData(ui.Data) Overlay { return h }

// Bindings implements Overlay: the help lists no keys of its own.
func (h Help) Bindings() []key.Binding { return nil }

// Kind implements Overlay: the help is no Spec's overlay.
func (h Help) Kind() Kind { return "" }

// Hints implements Overlay.
func (h Help) Hints() []ui.Hint {
	return []ui.Hint{{Key: "↑↓", Desc: "scroll"}, {Key: "esc/q/?", Desc: "close"}}
}

// Update implements Overlay: it scrolls the help (up/down, j/k) and closes
// it (esc, q, ?) with ui.BackMsg.
func (h Help) Update(msg tea.Msg) (Overlay, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return h, nil
	}
	switch k.String() {
	case "esc", "q", "?":
		return h, send(ui.BackMsg{})
	case "up", "k":
		h.top = max(h.top-1, 0)
	case "down", "j":
		h.top = min(h.top+1, max(len(h.entries())-1, 0))
	}
	return h, nil
}

// helpEntry is one line of the help: a group title, a binding, or a gap.
type helpEntry struct {
	title     string
	key, desc string
}

// entries lists the help's lines: each group's title (if any) and its
// enabled bindings, a gap between groups; empty groups are left out.
func (h Help) entries() []helpEntry {
	var out []helpEntry
	for _, g := range h.groups {
		var es []helpEntry
		for _, b := range g.Bindings {
			if b.Enabled() {
				es = append(es, helpEntry{key: b.Help().Key, desc: b.Help().Desc})
			}
		}
		if len(es) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, helpEntry{})
		}
		if g.Title != "" {
			out = append(out, helpEntry{title: g.Title})
		}
		out = append(out, es...)
	}
	return out
}

// View draws the help in exactly its size: a title, then the entries in
// as many columns as the height needs.
func (h Help) View() string {
	if h.h == 0 {
		return ""
	}
	lines := make([]string, h.h)
	lines[0] = h.th.Title.Render(ui.Cell("Keys", h.w)) + h.th.Dim.Render(ui.Cell("  esc to close", max(h.w-4, 0)))
	es := h.entries()
	foot := 0
	if h.h >= 4 {
		foot = 1
		lines[h.h-1] = ui.Footer(h.th, h.Hints(), h.w)
	}
	rows := max(h.h-2-foot, 1)
	keyW, descW := 0, 0
	for _, e := range es {
		keyW = max(keyW, ui.Width(ui.Cell(e.key, 16)))
		descW = max(descW, ui.Width(ui.Cell(e.desc, 28)), ui.Width(ui.Cell(e.title, 28))-keyW-2)
	}
	colW := keyW + 2 + descW + 2
	cols := max((len(es)+rows-1)/rows, 1)
	if cols*colW-2 > h.w { // no room for every column: scroll one
		cols, es = 1, es[min(h.top, len(es)):]
	}
	for c := range cols {
		for r := 0; r < rows && c*rows+r < len(es) && r+2 < h.h-foot; r++ {
			lines[r+2] += ui.Pad(h.entry(es[c*rows+r], keyW), colW)
		}
	}
	for i := range lines {
		lines[i] = ui.Pad(lines[i], h.w)
	}
	return strings.Join(lines, "\n")
}

func (h Help) entry(e helpEntry, keyW int) string {
	if e.title != "" {
		return h.th.Header.Render(ui.Cell(e.title, keyW+28))
	}
	if e.key == "" && e.desc == "" {
		return ""
	}
	return h.th.Key.Render(ui.Pad(ui.Cell(e.key, 16), keyW)) + "  " + ui.Cell(e.desc, 28)
}
