package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/termtext"
)

// Cell makes s, untrusted text from the wire, a file or the command line,
// safe to draw in width terminal cells: every control, bidi and invalid
// byte is escaped (termtext.Escape, so it shows as \x1b, \u202e ...),
// and the result is cut with "…" to fit width. It never pads. Only the
// first bytes of a huge s are looked at, so a 1 MB tool name costs what a
// short one does. width <= 0 gives "".
func Cell(s string, width int) string {
	if width <= 0 {
		return ""
	}
	// An escaped byte is at most 6 cells wide and a cell holds at least one
	// byte, so 4*width+8 bytes of s are enough to fill width cells.
	if limit := 4*width + 8; len(s) > limit {
		// Cut before a rune, backing up at most UTFMax-1 bytes: a run of
		// three-byte runes or of invalid bytes has no valid 4-byte tail.
		cut := limit
		for k := 1; k < utf8.UTFMax && !utf8.RuneStart(s[cut]); k++ {
			cut--
		}
		s = termtext.Escape(s[:cut]) + "…"
	} else {
		s = termtext.Escape(s)
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// Pad makes s (already safe: from Cell or a style) exactly width cells wide,
// cutting with "…" or padding with spaces.
func Pad(s string, width int) string {
	w := ansi.StringWidth(s)
	switch {
	case width <= 0:
		return ""
	case w > width:
		return ansi.Truncate(s, width, "…")
	case w < width:
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// Width is the number of terminal cells s (safe text, styles allowed)
// takes.
func Width(s string) int { return ansi.StringWidth(s) }
