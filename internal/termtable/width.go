package termtable

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/termtext"
)

// ellipsis ends a cut cell.
const ellipsis = "…"

// Width returns the display width of s, one line of escaped text: the
// columns a terminal gives it, two for a wide rune, none for a combining
// mark.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Cut returns s cut to at most width display columns, ending in "…" when
// it was cut; a wide rune that would straddle the edge goes whole.
func Cut(s string, width int) string {
	switch {
	case Width(s) <= width:
		return s
	case width <= 0:
		return ""
	}
	return ansi.Truncate(s, width, ellipsis)
}

// cellText is c's text as the table writes it: escaped unless it says it
// already is.
func cellText(c *Cell) string {
	if c.Escaped {
		return c.Text
	}
	return termtext.Escape(c.Text)
}
