package hub

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/units"
)

// colID names a column of the hub's table.
type colID uint8

// The columns, in screen order. Every column after colLabel gives way to
// a session's error on an Err row.
const (
	colPrefix colID = iota // the cursor and the live marker
	colLabel
	colTransport
	colClient
	colServer
	colCalls
	colErrors
	colElicit
	colFindings
	colLast
	colActivity
)

// column is a column's shape: its header, its width (min, growing first
// to want, then up to ideal when the screen has room; ideal 0 means
// fixed), its alignment and when it is dropped on a narrow screen (drop 1
// first; 0 never).
type column struct {
	id               colID
	title            string
	min, want, ideal int
	right            bool
	drop             int
}

// placed is a column with the width the screen gives it.
type placed struct {
	column
	width int
}

// columns lists the hub's columns. The least useful ones are dropped
// first on a narrow screen: the sparkline, the server, the client.
func columns() []column {
	return []column{
		{id: colPrefix, min: 3},
		{id: colLabel, title: "label", min: 20, want: 22, ideal: 40},
		{id: colTransport, title: "via", min: 5, drop: 4},
		{id: colClient, title: "client", min: 10, want: 16, ideal: 24, drop: 3},
		{id: colServer, title: "server", min: 10, want: 16, ideal: 24, drop: 2},
		{id: colCalls, title: "calls", min: 5, right: true, drop: 8},
		{id: colErrors, title: "errors", min: 6, right: true, drop: 6},
		{id: colElicit, title: "elicitations", min: 13, drop: 9},
		{id: colFindings, title: "findings", min: 8, right: true, drop: 5},
		{id: colLast, title: "last", min: 10, drop: 7},
		{id: colActivity, title: "activity", min: ui.ActivityBuckets / 2, want: ui.ActivityBuckets, ideal: ui.ActivityBuckets, drop: 1},
	}
}

// layout fits the columns in w cells, one space apart: it drops columns
// until the rest fit at their minimum widths, then grows the label, the
// client, the server and the sparkline to the widths they want, then to
// their ideal widths, and gives the label what is left.
func layout(w int) []placed {
	cols := columns()
	need := func() int {
		n := len(cols) - 1
		for _, c := range cols {
			n += c.min
		}
		return n
	}
	for need() > w {
		drop := -1
		for i, c := range cols {
			if c.drop > 0 && (drop < 0 || c.drop < cols[drop].drop) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		cols = append(cols[:drop:drop], cols[drop+1:]...)
	}
	extra := max(0, w-need())
	out := make([]placed, len(cols))
	label := 0
	for i, c := range cols {
		out[i] = placed{column: c, width: c.min}
		if c.id == colLabel {
			label = i
		}
	}
	for _, target := range [...]func(column) int{
		func(c column) int { return c.want },
		func(c column) int { return c.ideal },
	} {
		for i := range out {
			grow := min(extra, max(0, target(out[i].column)-out[i].width))
			out[i].width += grow
			extra -= grow
		}
	}
	out[label].width += extra
	if n := need(); n > w {
		out[label].width = max(0, out[label].width-(n-w))
	}
	return out
}

// headerLine is the table's header.
func (m Model) headerLine(cols []placed) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		title := ui.Cell(c.title, c.width)
		pad := strings.Repeat(" ", c.width-ui.Width(title))
		if title != "" {
			title = m.th.Header.Render(title)
		}
		if c.right {
			title = pad + title
		} else {
			title += pad
		}
		b.WriteString(title)
	}
	return b.String()
}

// row draws session s in the columns. The selected row is drawn in the
// Selected style, and an Err row dimmed with its error after the label;
// both without the cells' own colours, which would cut the row's.
func (m Model) row(cols []placed, s *ui.SessionInfo, selected bool) string {
	plain := selected || s.Err != ""
	st := func(style lipgloss.Style, text string) string {
		if plain {
			return text
		}
		return style.Render(text)
	}
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		if s.Err != "" && c.id > colLabel {
			rest := -1
			for _, r := range cols[i:] {
				rest += r.width + 1
			}
			b.WriteString(ui.Pad("error: "+ui.Cell(s.Err, rest-len("error: ")), rest))
			break
		}
		b.WriteString(align(m.cell(c, s, selected, st), c.width, c.right))
	}
	line := ui.Pad(b.String(), m.w)
	switch {
	case selected:
		return m.th.Selected.Render(line)
	case s.Err != "":
		return m.th.Dim.Render(line)
	}
	return line
}

// cell is the text of column c for session s, at most c.width cells,
// drawn in its colours by st.
func (m Model) cell(c placed, s *ui.SessionInfo, selected bool, st func(lipgloss.Style, string) string) string {
	th, w := m.th, c.width
	switch c.id {
	case colPrefix:
		cursor, live := " ", " "
		if selected {
			cursor = ">"
		}
		if s.Live {
			live = st(th.Live, "●")
		}
		return cursor + " " + live
	case colLabel:
		if s.Label == "" {
			return st(th.Dim, ui.Cell(s.ID, w))
		}
		return ui.Cell(s.Label, w)
	case colTransport:
		return ui.Cell(s.Transport, w)
	case colClient:
		return peer(s.Client.Name, s.Client.Version, w, st, th.Dim)
	case colServer:
		return peer(s.Server.Name, s.Server.Version, w, st, th.Dim)
	case colCalls:
		return count(s.Calls)
	case colErrors:
		return countStyled(s.Errors, st, th.Bad, th.Dim)
	case colElicit:
		if s.Loading {
			// Pending counts read half-way are not pending calls.
			return st(th.Dim, "loading…")
		}
		return elicitations(s.Elicitations, s.Pending, st, th)
	case colFindings:
		return countStyled(s.Findings, st, th.Warn, th.Dim)
	case colLast:
		t := s.LastActivity
		if t.IsZero() {
			t = s.Start
		}
		return ui.Cell(units.Age(t, m.now), w)
	case colActivity:
		return sparkline(s.Activity, w)
	}
	return ""
}

// align pads s (safe text) to width cells, on the left when right is set.
func align(s string, width int, right bool) string {
	if pad := width - ui.Width(s); right && pad > 0 {
		return strings.Repeat(" ", pad) + s
	}
	return ui.Pad(s, width)
}

// peer is "name/version" in at most w cells, each part escaped on its own
// so a huge name costs no more than a short one; "-" when unknown.
func peer(name, version string, w int, st func(lipgloss.Style, string) string, dim lipgloss.Style) string {
	if name == "" && version == "" {
		return st(dim, "-")
	}
	n := ui.Cell(name, w)
	if version == "" || ui.Width(n)+2 > w {
		return n
	}
	return n + st(dim, "/"+ui.Cell(version, w-ui.Width(n)-1))
}
