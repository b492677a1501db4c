package inspector

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// MaxClipboard is the largest text copied through OSC 52: terminals cap
// the sequence (xterm at about 100 KB), and a bigger one would be cut or
// dropped silently.
const MaxClipboard = 100 << 10

// osc52Hint says what to do where OSC 52 does not reach the clipboard.
const osc52Hint = "OSC 52; if your terminal does not support it, "

// copyBody copies the shown frame as captured (compact JSON, or the text).
func (m Model) copyBody() tea.Cmd {
	f := m.curFrame()
	if f == nil || f.lay == nil {
		return status("no frame to copy", true)
	}
	what := [...]string{"request", "response"}[m.pane]
	if len(f.raw) > MaxClipboard {
		return status(fmt.Sprintf("the %s body is %s: too large for the clipboard; use mcptrail export",
			what, size(len(f.raw))), true)
	}
	return tea.Batch(tea.SetClipboard(f.raw), status(fmt.Sprintf(
		"copied the %s body (%s) to the clipboard (%suse mcptrail export)", what, size(len(f.raw)), osc52Hint), false))
}

// copyPath copies the jq path of the cursor line.
func (m Model) copyPath() tea.Cmd {
	v, ok := m.curView()
	if !ok || v.lay == nil {
		return status("no frame to copy a path from", true)
	}
	p := v.lay.t.path(v.lay.nodeAt(v.cursor))
	if len(p) > MaxClipboard {
		return status(fmt.Sprintf("the path is %s: too large for the clipboard", size(len(p))), true)
	}
	return tea.Batch(tea.SetClipboard(p), status(fmt.Sprintf(
		"copied %s to the clipboard (%sthe path is: %s)", p, osc52Hint, p), false))
}

// size formats n bytes for a person.
func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
