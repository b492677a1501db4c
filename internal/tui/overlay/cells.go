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

// renderCells lays the cells out on one line of exactly the overlay's
// width, a space between them, each in its own style. A non-nil fill
// styles the gaps and the padding.
func (f *frame) renderCells(cs []cell, fill *lipgloss.Style) string {
	var b strings.Builder
	left := f.w
	gap := func(n int) {
		if n <= 0 {
			return
		}
		sp := strings.Repeat(" ", n)
		if fill != nil {
			sp = fill.Render(sp)
		}
		b.WriteString(sp)
	}
	for i, c := range cs {
		if i > 0 {
			if left <= 0 {
				break
			}
			gap(1)
			left--
		}
		w := min(c.w, left)
		if i == len(cs)-1 {
			w = left
		}
		text, n := c.s, ui.Width(c.s)
		if n > w {
			text = ui.Pad(text, w)
			n = ui.Width(text)
		}
		if fill != nil { // the padding takes the cell's background
			text, n = text+strings.Repeat(" ", w-n), w
		}
		if c.st != nil && text != "" {
			text = c.st.Render(text)
		}
		b.WriteString(text)
		gap(w - n)
		left -= w
	}
	gap(left)
	return b.String()
}

// renderHeader draws a column header line.
func (f *frame) renderHeader(cs []cell) string {
	for i := range cs {
		cs[i].st = &f.th.Header
	}
	return f.renderCells(cs, nil)
}

// renderSelected draws the selected row on the selection's background
// across the whole width, each cell keeping its colour.
func (f *frame) renderSelected(cs []cell) string {
	sel := f.th.Selected
	for i := range cs {
		st := sel
		if cs[i].st != nil {
			st = st.Foreground(cs[i].st.GetForeground())
		}
		cs[i].st = &st
	}
	return f.renderCells(cs, &sel)
}

// fit cuts safe text s to w cells with "…"; it never pads.
func fit(s string, w int) string {
	if ui.Width(s) > w {
		return ui.Pad(s, w)
	}
	return s
}

// styled returns a pointer to st for a cell.
func styled(st lipgloss.Style) *lipgloss.Style { return &st }
