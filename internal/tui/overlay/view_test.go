package overlay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// checkSize fails unless view is exactly h lines of at most w cells.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if h == 0 {
		if view != "" {
			t.Errorf("view at height 0 = %q, want empty", view)
		}
		return
	}
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ui.Width(l); got > w {
			t.Errorf("line %d is %d cells wide, want at most %d: %q", i, got, w, l)
		}
	}
}

func TestViewGolden(t *testing.T) {
	th := ui.NewTheme(true)
	for _, tc := range []struct {
		name, fixture string
		kind          Kind
	}{
		{"ledger", "elicit-seed", Ledger},
		{"ledger-legacy", "legacy-2025-11-25", Ledger},
		{"capabilities", "legacy-2025-11-25", Capabilities},
		{"tools", "catalog-drift", Tools},
		{"findings", "duplicate-response", Findings},
	} {
		d := tuitest.Fixture(t, tc.fixture)
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s-%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				m := New(th, tc.kind, d).SetSize(size[0], size[1])
				v := m.View()
				checkSize(t, v, size[0], size[1])
				golden(t, fmt.Sprintf("%s-%dx%d", tc.name, size[0], size[1]), v)
			})
		}
	}
}
