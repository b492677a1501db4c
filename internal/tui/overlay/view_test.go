package overlay

import (
	"fmt"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// checkSize fails unless view is exactly h lines of at most w cells.
func checkSize(t *testing.T, view string, w, h int) { t.Helper(); tuitest.CheckSize(t, view, w, h) }

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
