package inspector

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// open builds the inspector on call c of d at w x h and runs its Init
// command, as the app would, so the frames are loaded.
func open(t testing.TB, d ui.Data, c, w, h int) Model {
	t.Helper()
	m := New(ui.NewTheme(true), d, c).SetSize(w, h)
	return load(t, m, m.Init())
}

// load runs cmd and feeds its message to m.
func load(t testing.TB, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		t.Fatal("no load command")
	}
	msg := cmd()
	if _, ok := msg.(LoadedMsg); !ok {
		t.Fatalf("command returned %T, want LoadedMsg", msg)
	}
	m, _ = m.Update(msg)
	return m
}

// fixture is the named transcript's Data.
func fixture(t testing.TB, name string) ui.Data {
	t.Helper()
	return tuitest.Fixture(t, name)
}

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got) }
