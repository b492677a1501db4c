package stream

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// chrome is the number of lines around the rows: the header, the filter
// bar and the column titles above, the footer below.
const chrome = 4

// View draws the screen in exactly its size: only the rows in the window
// are read from the snapshot and drawn.
func (m Model) View() string {
	if m.h <= 0 {
		return ""
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, m.header(), m.barLine(), m.titles())
	lay := layoutFor(m.w)
	if m.grammar {
		lines = append(lines, m.grammarLines(m.body())...)
	}
	for i := m.off; !m.grammar && i < m.off+m.body() && i < len(m.ix.rows); i++ {
		lines = append(lines, m.rowLine(i, &lay))
	}
	for len(lines) < m.h-1 {
		lines = append(lines, "")
	}
	lines = append(lines, m.footer())
	lines = lines[:m.h]
	for i, l := range lines {
		lines[i] = ui.Pad(l, m.w)
	}
	return strings.Join(lines, "\n")
}

// header is the first line: the session, its calls and their p50/p95
// (headline), or while the capture loads how far the read is.
func (m Model) header() string {
	if m.data.Snap == nil {
		return m.th.Title.Render(ui.Cell("stream: no session", m.w))
	}
	s := m.data.Snap
	name := s.Session.Label
	if name == "" {
		name = s.Session.ID
	}
	text := ui.Cell("stream · "+clip(name, m.w), max(m.w/2, 1))
	counts := m.head.text()
	if m.data.Loading {
		counts = m.data.LoadingText()
	}
	// The rows shown are the footer's "row 3/8"; the header counts calls.
	counts = " · " + counts
	out := m.th.Title.Render(text) + m.th.Dim.Render(ui.Cell(counts, max(m.w-ui.Width(text), 0)))
	if m.data.Live && ui.Width(out)+5 <= m.w {
		out += " " + m.th.Live.Render("LIVE")
	}
	return out
}

// barLine is the filter bar: the text being typed, the applied filter or
// a hint, and the last bad filter's error.
func (m Model) barLine() string {
	switch {
	case m.editing && m.bar == "" && m.barErr == "":
		return "/█ " + m.th.Dim.Render(ui.Cell(placeholder, max(m.w-3, 0)))
	case m.editing:
		text := "/" + ui.Cell(m.bar, max(m.w-2, 0)) + "█"
		if m.barErr != "" {
			text += "  " + m.th.Error.Render(ui.Cell(m.barErr, max(m.w-ui.Width(text)-2, 0)))
		}
		return text
	case m.applied != "":
		return m.th.Dim.Render("filter: ") + ui.Cell(m.applied, max(m.w-8, 0))
	}
	return m.th.Dim.Render(ui.Cell("/ filter  "+placeholder, m.w))
}

// titles is the column header line.
func (m Model) titles() string {
	lay := layoutFor(m.w)
	names := titles()
	cells := make([]string, 0, numColumns+1)
	cells = append(cells, " ")
	for c, w := range lay {
		if w > 0 {
			name := ui.Cell(names[c], w)
			cells = append(cells, m.th.Header.Render(name)+strings.Repeat(" ", w-ui.Width(name)))
		}
	}
	return strings.Join(cells, " ")
}

// footer is the last line: the position, follow mode, the toggles and the
// last status.
func (m Model) footer() string {
	pos := fmt.Sprintf("row %d/%d ", m.sel+1, len(m.ix.rows))
	if len(m.ix.rows) == 0 {
		pos = "no rows "
	}
	mode := m.th.Live.Render("FOLLOW")
	if !m.follow {
		mode = m.th.Warn.Render("PAUSED")
	}
	out := pos + mode
	if m.status != "" {
		out += " · " + m.th.Warn.Render(ui.Cell(m.status, max(m.w-ui.Width(out)-3, 0)))
	}
	if rest := m.w - ui.Width(out) - 2; rest > 0 {
		if hs := ui.Footer(m.th, m.Hints(), rest); hs != "" {
			out += "  " + hs
		}
	}
	return out
}

// Hints lists the keys the stream accepts now for its footer, the most
// useful first.
func (m Model) Hints() []ui.Hint {
	k := m.keys
	if m.editing {
		hs := []ui.Hint{ui.HintFor(k.Apply, "apply"), ui.HintFor(k.Cancel, "cancel"),
			ui.HintFor(k.Clear, "clear")}
		if m.bar == "" || m.grammar {
			hs = append(hs, ui.Hint{Key: "?", Desc: "grammar"})
		}
		return hs
	}
	return []ui.Hint{ui.HintFor(k.Inspect, "inspect"), ui.HintFor(k.Filter, "filter"),
		ui.HintFor(k.Toggle, "rounds"), ui.HintFor(k.Notifications, "notifications "+onOff(m.notes)),
		ui.HintFor(k.Stderr, "stderr "+onOff(m.stderr)), ui.HintFor(k.Bottom, "follow"),
		{Key: "?", Desc: "help"}}
}

// onOff names a toggle's state.
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// cell draws text, untrusted, in exactly w cells with style st.
func cell(st lipgloss.Style, text string, w int, plain bool) string {
	s := ui.Pad(ui.Cell(text, w), w)
	if plain {
		return s
	}
	return st.Render(s)
}
