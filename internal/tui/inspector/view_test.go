package inspector

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

func TestViewGolden(t *testing.T) {
	t.Parallel()
	seed, legacy := fixture(t, "elicit-seed"), fixture(t, "legacy-2025-11-25")
	pending := prefix(t, "elicit-seed", 3)
	tests := []struct {
		name string
		keys []string
	}{
		{"request", nil},
		{"response", []string{"tab"}},
		{"folded", []string{"z", "j", "j", "j", "j", "enter"}},
		{"search", []string{"/", "c", "a", "n", "a", "r", "y", "enter"}},
		{"search-typing", []string{"/", "a", "c", "c"}},
		{"round1", []string{"[", "tab", "j", "j", "j", "enter"}},
		{"nested", nil},
		{"pending", []string{"tab"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, tt := range tests {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m := open(t, seed, 1, size[0], size[1])
				switch tt.name {
				case "nested":
					m, _ = tuitest.Send(open(t, legacy, 1, size[0], size[1]), "tab", "tab", "j")
				case "pending":
					m = open(t, pending, 1, size[0], size[1])
				}
				m, _ = tuitest.Send(m, tt.keys...)
				got := m.View()
				checkSize(t, got, size[0], size[1])
				golden(t, name, got)
			})
		}
	}
}

// checkSize fails unless view is exactly h lines of at most w cells.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if h == 0 {
		if view != "" {
			t.Errorf("View at height 0 is %q", view)
		}
		return
	}
	if len(lines) != h {
		t.Errorf("View has %d lines, want %d", len(lines), h)
	}
	checkSafe(t, view, w)
}

func TestViewSizes(t *testing.T) {
	t.Parallel()
	seed, legacy := fixture(t, "elicit-seed"), fixture(t, "legacy-2025-11-25")
	for _, size := range [][2]int{{40, 10}, {1, 1}, {0, 0}, {0, 5}, {5, 0}, {2, 3}, {10, 6}, {80, 4}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			// Opened at 80x24 then resized, and opened at the size.
			for _, m := range []Model{open(t, seed, 1, 80, 24).SetSize(w, h), open(t, seed, 1, w, h)} {
				for _, keys := range [][]string{nil, {"G"}, {"tab", "pgdown"}, {"/", "x"}, {"z", "/", "c", "a", "n", "enter"}} {
					m, _ := tuitest.Send(m, keys...)
					checkSize(t, m.View(), w, h)
				}
			}
			m, _ := tuitest.Send(open(t, legacy, 1, w, h), "tab", "tab", "G")
			checkSize(t, m.View(), w, h)
			checkSize(t, New(ui.NewTheme(true), seed, 1).SetSize(w, h).View(), w, h) // not loaded yet
		})
	}
}

// TestTaskContext: a task's calls show the task's own status and polls
// beside the operation's status (ext-tasks).
func TestTaskContext(t *testing.T) {
	t.Parallel()
	d := fixture(t, "tasks-input-required")
	for _, call := range []int{1, 4} { // the tools/call and its tasks/update
		m := open(t, d, call, 120, 40)
		if got := ansi.Strip(m.View()); !strings.Contains(got, "operation of 6 rounds  task completed, 4 polls  ok") {
			t.Errorf("call %d: the header does not show the task:\n%s", call, got)
		}
	}
}
