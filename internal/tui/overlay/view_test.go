package overlay

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
		{"ledger-apps", "apps", Ledger},
		{"capabilities", "legacy-2025-11-25", Capabilities},
		{"tools", "catalog-drift", Tools},
		{"tools-skills", "skills-verified", Tools},
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

// TestLedgerAppRow selects the app-rendered row of the apps fixture: its
// detail names the ui:// resource that renders the form, and the table
// its mode, app.
func TestLedgerAppRow(t *testing.T) {
	m := New(ui.NewTheme(true), Ledger, tuitest.Fixture(t, "apps")).SetSize(120, 40)
	m, _ = m.Update(tuitest.Press("down"))
	v := m.View()
	checkSize(t, v, 120, 40)
	golden(t, "ledger-apps-app-120x40", v)
	if plain := ansi.Strip(v); !contains(plain, "asks ui://dashboards/range-picker: from:string*") || !contains(plain, " app ") {
		t.Errorf("the app row's mode or resource is missing:\n%s", plain)
	}
}

// TestLedgerTaskRow: the detail of a row a task asked says what became of
// the task: its status, its polls and its duration.
func TestLedgerTaskRow(t *testing.T) {
	m := New(ui.NewTheme(true), Ledger, tuitest.Fixture(t, "tasks-input-required")).SetSize(120, 40)
	v := m.View()
	checkSize(t, v, 120, 40)
	if plain := ansi.Strip(v); !contains(plain, "task completed, 4 polls, 4.05s") {
		t.Errorf("the task row's detail does not say what became of the task:\n%s", plain)
	}
}
