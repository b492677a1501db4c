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

// press sends the keys to m, one KeyPressMsg each, and returns the last
// command.
func press(m Model, keys ...string) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		m, cmd = m.Update(keyMsg(k))
	}
	return m, cmd
}

// keyMsg is the KeyPressMsg whose String() is k.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: unknown key " + k)
	}
	code := r[0]
	msg := tea.KeyPressMsg{Code: code, Text: k}
	if code >= 'A' && code <= 'Z' {
		msg = tea.KeyPressMsg{Code: code + 'a' - 'A', ShiftedCode: code, Mod: tea.ModShift, Text: k}
	}
	return msg
}

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got) }
