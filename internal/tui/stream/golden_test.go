package stream

import (
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got) }

// checkSize fails unless view is exactly h lines of at most w cells.
func checkSize(t *testing.T, view string, w, h int) { t.Helper(); tuitest.CheckSize(t, view, w, h) }

// screen returns a stream of fixture name at size w×h, after the keys.
func screen(t *testing.T, name string, w, h int) Model {
	t.Helper()
	return New(ui.NewTheme(true)).SetSize(w, h).SetData(tuitest.Fixture(t, name))
}

func TestViewGoldens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fixture string
		keys    []string
	}{
		{"elicit-seed", "elicit-seed", nil},
		{"legacy", "legacy-2025-11-25", nil},
		{"expanded", "mrtr-chain", []string{"g", "j", "space"}},
		{"filter-error", "elicit-seed", []string{"/", "s", "t", "a", "t", "u", "s", ":", "o", "k", "k", "enter"}},
		{"filter-decline", "elicit-seed", []string{"/", "e", "l", "i", "c", "i", "t", ":", "d", "e", "c", "l", "i", "n", "e", "enter"}},
		{"paused", "elicit-ledger-edges", []string{"g", "j"}},
		{"cancel-late", "cancel-late", nil},
		{"errors", "errors", []string{"k"}},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				m := screen(t, tc.fixture, size[0], size[1])
				m, _ = tuitest.Send(m, tc.keys...)
				v := m.View()
				checkSize(t, v, size[0], size[1])
				golden(t, tc.name+"-"+sizeName(size), v)
			})
		}
	}
}

func sizeName(s [2]int) string {
	return strings.Join([]string{itoa(s[0]), itoa(s[1])}, "x")
}
