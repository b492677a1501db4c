package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// TestRenderFitsAnySize draws every screen over a session at sizes down to
// nothing: exactly the terminal's size, never a panic.
func TestRenderFitsAnySize(t *testing.T) {
	keys := []string{"", "?"} // the stream, the help, and every overlay's key
	for _, spec := range overlay.Specs() {
		keys = append(keys, spec.Key.Keys()[0])
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 10}, {1, 1}, {2, 3}, {0, 0}} {
		for _, k := range keys {
			t.Run(fmt.Sprintf("%dx%d%s", size[0], size[1], k), func(t *testing.T) {
				a, _ := update(t, opened(t, Options{}), tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				if k != "" {
					a, _ = update(t, a, tuitest.Press(k))
				}
				tuitest.CheckSize(t, a.Render(), size[0], size[1])
			})
		}
	}
}

// TestAppGolden: the app over elicit-seed — title line and stream, and the
// ledger overlay — at 80×24 and 120×40 (refresh with go test -update).
func TestAppGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, k := range []string{"", "l"} {
			name := fmt.Sprintf("app-%dx%d", size[0], size[1])
			if k != "" {
				name += "-" + k
			}
			a, _ := update(t, opened(t, Options{}), tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			if k != "" {
				a, _ = update(t, a, tuitest.Press(k))
			}
			tuitest.Golden(t, name, a.Render())
		}
	}
}
