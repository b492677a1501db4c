package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"strings"
	"testing"
)

func TestRenderFitsAnySize(t *testing.T) {
	a := opened(t, Options{})
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 10}, {1, 1}, {2, 3}, {0, 0}} {
		for _, k := range []string{"", "l", "c", "t", "f", "?"} {
			b, _ := update(t, a, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			if k != "" {
				b, _ = update(t, b, press(k))
			}
			out := b.Render()
			if size[1] == 0 {
				if out != "" {
					t.Errorf("%v %q: %q on a 0-high terminal", size, k, out)
				}
				continue
			}
			lines := strings.Split(out, "\n")
			if len(lines) != size[1] {
				t.Errorf("%v %q: %d lines", size, k, len(lines))
			}
			for i, l := range lines {
				if w := ui.Width(l); w > size[0] {
					t.Errorf("%v %q: line %d is %d cells", size, k, i, w)
				}
			}
		}
	}
}
