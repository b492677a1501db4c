package hub

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

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
		{"j", 0, tuitest.Keys("j"), state{Selected: "b", Rows: 7}},
		{"down twice", 0, tuitest.Keys("down", "down"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7}},
		{"k at the top", 0, tuitest.Keys("k"), state{Selected: "a", Rows: 7}},
		{"up after down", 0, tuitest.Keys("j", "j", "up"), state{Selected: "b", Rows: 7}},
		{"G", 0, tuitest.Keys("G"), state{Selected: "g", Rows: 7}},
		{"end", 0, tuitest.Keys("end"), state{Selected: "g", Rows: 7}},
		{"g after G", 0, tuitest.Keys("G", "g"), state{Selected: "a", Rows: 7}},
		{"home", 0, tuitest.Keys("G", "home"), state{Selected: "a", Rows: 7}},
		{"j past the end", 0, tuitest.Keys("G", "j"), state{Selected: "g", Rows: 7}},
		// 8 lines: 4 rows on screen.
		{"pgdown", 8, tuitest.Keys("pgdown"), state{Selected: "e", Rows: 7, Top: 1}},
		{"pgdown twice", 8, tuitest.Keys("pgdown", "pgdown"), state{Selected: "g", Rows: 7, Top: 3}},
		{"pgup", 8, tuitest.Keys("G", "pgup"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7, Top: 2}},
		{"ctrl+f", 8, tuitest.Keys("ctrl+f"), state{Selected: "e", Rows: 7, Top: 1}},
		{"ctrl+b", 8, tuitest.Keys("G", "ctrl+b"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 7, Top: 2}},
		{"scroll follows j", 8, tuitest.Keys("j", "j", "j", "j"), state{Selected: "e", Rows: 7, Top: 1}},
		{"enter", 0, tuitest.Keys("j", "enter"), state{Selected: "b", Rows: 7, Cmd: ui.OpenSessionMsg{Path: "/s/b.jsonl", ID: "b"}}},
		{"slash focuses the filter", 0, tuitest.Keys("/"), state{Selected: "a", Rows: 7, Capturing: true}},
		{"typing filters", 0, tuitest.Keys("/", "l", "o", "A", "d"), state{Selected: "e", Rows: 1, Filter: "loAd", Capturing: true}},
		{"j is text while typing", 0, tuitest.Keys("/", "j"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "j", Capturing: true}},
		{"filter on the server", 0, tuitest.Keys("/", "e", "v", "e", "r", "y"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "every", Capturing: true}},
		{"filter on the id of an unlabelled session", 0, tuitest.Keys("/", "0", "1", "j"), state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 1, Filter: "01j", Capturing: true}},
		{"filter on the client", 0, tuitest.Keys("/", "C", "U", "R"), state{Selected: "b", Rows: 1, Filter: "CUR", Capturing: true}},
		{"backspace", 0, tuitest.Keys("/", "l", "o", "a", "x", "backspace"), state{Selected: "e", Rows: 1, Filter: "loa", Capturing: true}},
		// "lo" hides the selected a: b is the first row that shows.
		{"ctrl+u", 0, tuitest.Keys("/", "l", "o", "ctrl+u"), state{Selected: "b", Rows: 7, Capturing: true}},
		{"ctrl+w", 0, tuitest.Keys("/", "a", "space", "b", "c", "ctrl+w"), state{Rows: 0, Filter: "a ", Capturing: true}},
		{"enter keeps the filter", 0, tuitest.Keys("/", "l", "o", "a", "d", "enter"), state{Selected: "e", Rows: 1, Filter: "load"}},
		{"esc clears the filter", 0, tuitest.Keys("/", "l", "o", "a", "d", "esc"), state{Selected: "e", Rows: 7, Top: 0}},
		{"esc clears a kept filter", 0, tuitest.Keys("/", "l", "o", "a", "d", "enter", "esc"), state{Selected: "e", Rows: 7}},
		{"enter opens after the filter", 0, tuitest.Keys("/", "l", "a", "s", "t", "enter", "enter"), state{Selected: "g", Rows: 1, Filter: "last", Cmd: ui.OpenSessionMsg{Path: "/s/g.jsonl", ID: "g"}}},
		{"arrows move while typing", 0, tuitest.Keys("/", "s", "down"), state{Selected: "b", Rows: 5, Filter: "s", Capturing: true}},
		{"paste", 0, []tea.Msg{tuitest.Press("/"), tea.PasteMsg{Content: "check\nout"}}, state{Rows: 0, Filter: "check out", Capturing: true}},
		{"no match", 0, tuitest.Keys("/", "z", "z", "z", "enter", "enter"), state{Rows: 0, Filter: "zzz"}},
		{"other keys do nothing", 0, tuitest.Keys("x", "q", "?"), state{Selected: "a", Rows: 7}},
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
