package overlay

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// cell is one column of a row: safe text (from ui.Cell, or escaped by
// termtext), its width in cells (the last cell takes the rest of the
// line) and its style (nil: none).
type cell struct {
	s  string
	w  int
	st *lipgloss.Style
}

// renderCells lays the cells out on one line, a space between them, each
// in its own style; plain drops the styles.
func (m Model) renderCells(cs []cell, plain bool) string {
	var b strings.Builder
	left := m.w
	for i, c := range cs {
		if i > 0 {
			if left <= 0 {
				break
			}
			b.WriteByte(' ')
			left--
		}
		w := min(c.w, left)
		last := i == len(cs)-1
		if last {
			w = left
		}
		text := fit(c.s, w)
		gap := w - ui.Width(text)
		if c.st != nil && !plain && text != "" {
			text = c.st.Render(text)
		}
		b.WriteString(text)
		if !last {
			b.WriteString(strings.Repeat(" ", gap))
		}
		left -= w
	}
	return b.String()
}

// renderHeader draws a column header line.
func (m Model) renderHeader(cs []cell) string {
	for i := range cs {
		cs[i].st = &m.th.Header
	}
	return m.renderCells(cs, false)
}

// fit cuts safe text s to w cells with "…"; it never pads.
func fit(s string, w int) string {
	if ui.Width(s) > w {
		return ui.Pad(s, w)
	}
	return s
}

// renderSelected draws the selected row: the cells' plain text on the
// selection's background across the whole width.
func (m Model) renderSelected(cs []cell) string {
	return m.th.Selected.Render(ui.Pad(m.renderCells(cs, true), m.w))
}

// styled returns a pointer to st for a cell.
func styled(st lipgloss.Style) *lipgloss.Style { return &st }
