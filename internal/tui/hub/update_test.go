package hub

import (
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// press is the key press named s: a bubbletea key name ("up", "enter",
// "ctrl+u") or the text typed.
func press(s string) tea.KeyPressMsg {
	named := map[string]tea.Key{
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
		"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd},
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape},
		"backspace": {Code: tea.KeyBackspace}, "space": {Code: tea.KeySpace, Text: " "},
		"ctrl+u": {Code: 'u', Mod: tea.ModCtrl}, "ctrl+w": {Code: 'w', Mod: tea.ModCtrl},
		"ctrl+f": {Code: 'f', Mod: tea.ModCtrl}, "ctrl+b": {Code: 'b', Mod: tea.ModCtrl},
	}
	if k, ok := named[s]; ok {
		return tea.KeyPressMsg(k)
	}
	r, _ := utf8.DecodeRuneInString(s)
	k := tea.Key{Code: r, Text: s}
	if r >= 'A' && r <= 'Z' {
		k.Mod = tea.ModShift
	}
	return tea.KeyPressMsg(k)
}

// keys turns key names into messages.
func keys(names ...string) []tea.Msg {
	msgs := make([]tea.Msg, len(names))
	for i, n := range names {
		msgs[i] = press(n)
	}
	return msgs
}

// state is what a test checks of a Model after its messages.
type state struct {
	Selected  string // the selected session's ID
	Rows      int
	Top       int
	Filter    string
	Capturing bool
	Cmd       tea.Msg // the last command's message
}

func stateOf(m Model, cmd tea.Cmd) state {
	s := state{Rows: len(m.rows), Top: m.top, Filter: m.Filter(), Capturing: m.Capturing()}
	if sel, ok := m.Selected(); ok {
		s.Selected = sel.ID
	}
	if cmd != nil {
		s.Cmd = cmd()
	}
	return s
}

func run(m Model, msgs []tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, msg := range msgs {
		m, cmd = m.Update(msg)
	}
	return m, cmd
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		h    int // screen height; 0 means 40
		msgs []tea.Msg
		want state
	}{
		{"start", 0, nil, state{Selected: "a", Rows: 7}},
		{"j", 0, keys("j"), state{Selected: "b", Rows: 7}},
		{"down twice", 0, keys("down", "down"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7}},
		{"k at the top", 0, keys("k"), state{Selected: "a", Rows: 7}},
		{"up after down", 0, keys("j", "j", "up"), state{Selected: "b", Rows: 7}},
		{"G", 0, keys("G"), state{Selected: "g", Rows: 7}},
		{"end", 0, keys("end"), state{Selected: "g", Rows: 7}},
		{"g after G", 0, keys("G", "g"), state{Selected: "a", Rows: 7}},
		{"home", 0, keys("G", "home"), state{Selected: "a", Rows: 7}},
		{"j past the end", 0, keys("G", "j"), state{Selected: "g", Rows: 7}},
		// 8 lines: 4 rows on screen.
		{"pgdown", 8, keys("pgdown"), state{Selected: "e", Rows: 7, Top: 1}},
		{"pgdown twice", 8, keys("pgdown", "pgdown"), state{Selected: "g", Rows: 7, Top: 3}},
		{"pgup", 8, keys("G", "pgup"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7, Top: 2}},
		{"ctrl+f", 8, keys("ctrl+f"), state{Selected: "e", Rows: 7, Top: 1}},
		{"ctrl+b", 8, keys("G", "ctrl+b"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7, Top: 2}},
		{"scroll follows j", 8, keys("j", "j", "j", "j"), state{Selected: "e", Rows: 7, Top: 1}},
		{"enter", 0, keys("j", "enter"), state{Selected: "b", Rows: 7, Cmd: ui.OpenSessionMsg{Path: "/s/b.jsonl", ID: "b"}}},
		{"slash focuses the filter", 0, keys("/"), state{Selected: "a", Rows: 7, Capturing: true}},
		{"typing filters", 0, keys("/", "l", "o", "A", "d"), state{Selected: "e", Rows: 1, Filter: "loAd", Capturing: true}},
		{"j is text while typing", 0, keys("/", "j"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "j", Capturing: true}},
		{"filter on the server", 0, keys("/", "e", "v", "e", "r", "y"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "every", Capturing: true}},
		{"filter on the id of an unlabelled session", 0, keys("/", "0", "1", "j"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "01j", Capturing: true}},
		{"filter on the client", 0, keys("/", "C", "U", "R"), state{Selected: "b", Rows: 1, Filter: "CUR", Capturing: true}},
		{"backspace", 0, keys("/", "l", "o", "a", "x", "backspace"), state{Selected: "e", Rows: 1, Filter: "loa", Capturing: true}},
		// "lo" hides the selected a: b is the first row that shows.
		{"ctrl+u", 0, keys("/", "l", "o", "ctrl+u"), state{Selected: "b", Rows: 7, Capturing: true}},
		{"ctrl+w", 0, keys("/", "a", "space", "b", "c", "ctrl+w"), state{Rows: 0, Filter: "a ", Capturing: true}},
		{"enter keeps the filter", 0, keys("/", "l", "o", "a", "d", "enter"), state{Selected: "e", Rows: 1, Filter: "load"}},
		{"esc clears the filter", 0, keys("/", "l", "o", "a", "d", "esc"), state{Selected: "e", Rows: 7, Top: 0}},
		{"esc clears a kept filter", 0, keys("/", "l", "o", "a", "d", "enter", "esc"), state{Selected: "e", Rows: 7}},
		{"enter opens after the filter", 0, keys("/", "l", "a", "s", "t", "enter", "enter"), state{Selected: "g", Rows: 1, Filter: "last", Cmd: ui.OpenSessionMsg{Path: "/s/g.jsonl", ID: "g"}}},
		{"arrows move while typing", 0, keys("/", "s", "down"), state{Selected: "b", Rows: 5, Filter: "s", Capturing: true}},
		{"paste", 0, []tea.Msg{press("/"), tea.PasteMsg{Content: "check\nout"}}, state{Rows: 0, Filter: "check out", Capturing: true}},
		{"no match", 0, keys("/", "z", "z", "z", "enter", "enter"), state{Rows: 0, Filter: "zzz"}},
		{"other keys do nothing", 0, keys("x", "q", "?"), state{Selected: "a", Rows: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := tt.h
			if h == 0 {
				h = 40
			}
			got := stateOf(run(model(120, h), tt.msgs))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("after %v (-want +got):\n%s", tt.msgs, diff)
			}
		})
	}
}

func TestUpdateMouse(t *testing.T) {
	t.Parallel()
	wheel := func(b tea.MouseButton) tea.Msg { return tea.MouseWheelMsg{Button: b} }
	click := func(y int) tea.Msg { return tea.MouseClickMsg{Y: y, Button: tea.MouseLeft} }
	tests := []struct {
		name string
		msgs []tea.Msg
		want state
	}{
		{"wheel down", []tea.Msg{wheel(tea.MouseWheelDown)}, state{Selected: "d", Rows: 7}},
		{"wheel up", []tea.Msg{wheel(tea.MouseWheelDown), wheel(tea.MouseWheelDown), wheel(tea.MouseWheelUp)}, state{Selected: "d", Rows: 7}},
		{"click a row", []tea.Msg{click(5)}, state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7}},
		{"click the selected row", []tea.Msg{click(4), click(4)}, state{Selected: "b", Rows: 7, Cmd: ui.OpenSessionMsg{Path: "/s/b.jsonl", ID: "b"}}},
		{"click the header", []tea.Msg{click(2)}, state{Selected: "a", Rows: 7}},
		{"click below the rows", []tea.Msg{click(20)}, state{Selected: "a", Rows: 7}},
		{"right click", []tea.Msg{tea.MouseClickMsg{Y: 5, Button: tea.MouseRight}}, state{Selected: "a", Rows: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := stateOf(run(model(120, 40), tt.msgs))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("after %v (-want +got):\n%s", tt.msgs, diff)
			}
		})
	}
}
