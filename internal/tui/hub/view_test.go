package hub

import (
	"fmt"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestViewGolden checks the screen as drawn, escapes included, against
// testdata/*.golden (go test -update rewrites them).
func TestViewGolden(t *testing.T) {
	t.Parallel()
	empty := New(ui.NewTheme(true)).SetDir("~/.mcptrail").SetNow(now)
	tests := []struct {
		name string
		m    Model
	}{
		{"80x24", model(80, 24)},
		{"120x40", first(run(model(120, 40), tuitest.Keys("j", "j", "j")))}, // the Err row selected
		{"40x10", model(40, 10)},
		{"empty-80x24", empty.SetSize(80, 24)},
		{"filtering-80x24", first(run(model(80, 24), tuitest.Keys("/", "p", "a", "y")))},
		{"filtered-80x24", first(run(model(80, 24).SetHints(nil), tuitest.Keys("/", "e", "r", "enter")))},
		{"nomatch-80x24", first(run(model(80, 24), tuitest.Keys("/", "n", "o", "p", "e", "enter")))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.m.View()
			checkSize(t, got, tt.m.w, tt.m.h)
			checkGolden(t, tt.name, got)
		})
	}
}

func first[A, B any](a A, _ B) A { return a }

// TestViewSize checks every size, down to none at all, gives exactly
// that many lines of at most that many cells, and never panics.
func TestViewSize(t *testing.T) {
	t.Parallel()
	models := map[string]Model{
		"sessions":  model(0, 0),
		"empty":     New(ui.NewTheme(false)).SetDir("/a/very/long/state/directory/path/that/goes/on"),
		"filtering": first(run(model(0, 0), tuitest.Keys("/", "a"))),
		"no match":  first(run(model(0, 0), tuitest.Keys("/", "z", "enter"))),
		"scrolled":  first(run(model(0, 0), tuitest.Keys("G"))),
	}
	sizes := [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {10, 3}, {40, 10}, {80, 1}, {1, 80}, {200, 60}}
	for name, m := range models {
		for _, s := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", name, s[0], s[1]), func(t *testing.T) {
				m := m.SetSize(s[0], s[1])
				checkSize(t, m.View(), s[0], s[1])
				m, _ = run(m, tuitest.Keys("j", "G", "pgup", "k"))
				checkSize(t, m.View(), s[0], s[1])
			})
		}
	}
}

// TestResizeKeepsSelection checks a resize keeps the selection on screen.
func TestResizeKeepsSelection(t *testing.T) {
	t.Parallel()
	m, _ := run(model(120, 40), tuitest.Keys("G"))
	m = m.SetSize(40, 6) // two rows
	if m.sel < m.top || m.sel >= m.top+2 {
		t.Errorf("selection %d not on screen from %d", m.sel, m.top)
	}
}
