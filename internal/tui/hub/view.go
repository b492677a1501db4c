package hub

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// frame says which lines a screen of the model's height shows around the
// rows: the title, the filter line, the header and the footer are given
// up, in that order from the bottom, as the screen gets shorter.
type frame struct {
	title, filter, header, footer bool
	body                          int // rows of sessions
}

func (m Model) frame() frame {
	h := m.h
	switch {
	case h >= 5:
		return frame{title: true, filter: true, header: true, footer: true, body: h - 4}
	case h >= 3:
		f := frame{header: true, body: h - 2}
		f.filter = m.filtering || m.filter != ""
		f.title = !f.filter
		return f
	case h >= 1 && m.filtering:
		return frame{filter: true, body: h - 1}
	}
	return frame{body: max(0, h)}
}

// above is the number of lines above the rows.
func (f frame) above() int {
	n := 0
	for _, on := range [...]bool{f.title, f.filter, f.header} {
		if on {
			n++
		}
	}
	return n
}

// View draws the screen in exactly its size: h lines of w cells.
func (m Model) View() string {
	if m.h <= 0 {
		return ""
	}
	if m.w <= 0 {
		return strings.Repeat("\n", m.h-1)
	}
	f := m.frame()
	lines := make([]string, 0, m.h)
	if f.title {
		lines = append(lines, m.titleLine())
	}
	if f.filter {
		lines = append(lines, m.filterLine())
	}
	cols := layout(m.w)
	switch {
	case !f.header:
	case len(m.sessions) == 0:
		lines = append(lines, "")
	default:
		lines = append(lines, m.headerLine(cols))
	}
	lines = append(lines, m.body(cols, f.body)...)
	if f.footer {
		lines = append(lines, m.footerLine())
	}
	for i, l := range lines {
		lines[i] = ui.Pad(l, m.w)
	}
	return strings.Join(lines, "\n")
}

// titleLine is "mcptrail — N sessions, M live" and the state directory.
func (m Model) titleLine() string {
	noun := "sessions"
	if len(m.sessions) == 1 {
		noun = "session"
	}
	title := m.th.Title.Render(fmt.Sprintf("mcptrail — %d %s, %d live", len(m.sessions), noun, m.live))
	if room := m.w - ui.Width(title) - 2; room > 0 && m.dir != "" {
		title += "  " + m.th.Dim.Render(ui.Cell(m.dir, room))
	}
	return title
}

// filterLine shows the label filter (being typed, applied, or a hint)
// and, on the right, where the selection is in the rows shown.
func (m Model) filterLine() string {
	var right string
	if m.sel >= 0 {
		right = fmt.Sprintf("%d/%d", m.sel+1, len(m.rows))
		if m.filter != "" {
			right += fmt.Sprintf(" of %d", len(m.sessions))
		}
	}
	room := max(0, m.w-len(right)-1)
	var left string
	switch {
	case m.filtering:
		left = m.th.Key.Render("/") + ui.Cell(m.filter, room-2) + m.th.Dim.Render("█")
	case m.filter != "":
		left = m.th.Key.Render("/") + ui.Cell(m.filter, room-1)
	default:
		left = m.th.Dim.Render(ui.Cell("/ to filter by label, client or server", room))
	}
	if right == "" || ui.Width(left)+1+len(right) > m.w {
		return left
	}
	return ui.Pad(left, m.w-len(right)) + m.th.Dim.Render(right)
}

// body is the n lines of rows from the first on screen, or the empty
// hub's explanation.
func (m Model) body(cols []placed, n int) []string {
	lines := make([]string, 0, n)
	switch {
	case n <= 0:
		return nil
	case len(m.sessions) == 0:
		for _, p := range [...]string{
			"no sessions yet in " + ui.Cell(m.dir, m.w) + " —",
			"run a server through mcptrail (mcptrail -- server …) or `mcptrail demo`",
		} {
			for _, l := range strings.Split(ansi.Wrap(p, max(1, m.w-2), " "), "\n") {
				lines = append(lines, "  "+m.th.Dim.Render(l))
			}
		}
	case len(m.rows) == 0:
		lines = append(lines, "  "+m.th.Dim.Render("no session matches "+ui.Cell(m.filter, m.w)))
	default:
		top := visibleTop(m.top, m.sel, len(m.rows), n)
		for i := top; i < len(m.rows) && i < top+n; i++ {
			lines = append(lines, m.row(cols, &m.sessions[m.rows[i]], i == m.sel))
		}
	}
	if len(lines) > n {
		lines = lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// footerLine shows the key hints that fit (Hints).
func (m Model) footerLine() string { return ui.Footer(m.th, m.Hints(), m.w) }

// Hints lists the keys the hub accepts now for its footer, the most
// useful first: open and filter (or, while typing the filter, how to end
// it), the app's own bindings, then moving.
func (m Model) Hints() []ui.Hint {
	k := m.keys
	var bs []key.Binding
	switch {
	case m.filtering:
		bs = m.Bindings()
	default:
		if len(m.rows) > 0 {
			bs = append(bs, k.Open)
		}
		bs = append(bs, k.Filter)
		if m.filter != "" {
			bs = append(bs, k.ClearFilter)
		}
		bs = append(bs, m.hints...)
		bs = append(bs, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown)
	}
	hs := make([]ui.Hint, 0, len(bs))
	for _, b := range bs {
		hs = append(hs, ui.HintFor(b, ""))
	}
	return hs
}
