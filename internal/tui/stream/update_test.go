package stream

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// forty is a stream of 40 calls on a 80×14 screen (10 rows drawn).
func forty(t *testing.T) Model {
	t.Helper()
	d := tuitest.Data(t, tuitest.Capture(t, "forty", calls(40), true))
	return New(ui.NewTheme(true)).SetSize(80, 14).SetData(d)
}

func TestUpdateKeys(t *testing.T) {
	t.Parallel()
	base := state{Sel: 39, Off: 30, Rows: 40, Selected: 39, Follow: true}
	for _, tc := range []struct {
		keys []string
		want func(s *state)
	}{
		{nil, func(s *state) {}},
		{[]string{"k"}, func(s *state) { s.Sel, s.Selected, s.Follow = 38, 38, false }},
		{[]string{"up"}, func(s *state) { s.Sel, s.Selected, s.Follow = 38, 38, false }},
		{[]string{"j"}, func(s *state) {}},
		{[]string{"k", "k", "j"}, func(s *state) { s.Sel, s.Selected, s.Follow = 38, 38, false }},
		{[]string{"k", "down"}, func(s *state) { s.Follow = false }},
		{[]string{"pgup"}, func(s *state) { s.Sel, s.Selected, s.Off, s.Follow = 30, 30, 30, false }},
		{[]string{"ctrl+u", "ctrl+u"}, func(s *state) { s.Sel, s.Selected, s.Off, s.Follow = 21, 21, 21, false }},
		{[]string{"g"}, func(s *state) { s.Sel, s.Selected, s.Off, s.Follow = 0, 0, 0, false }},
		{[]string{"home", "pgdown"}, func(s *state) { s.Sel, s.Selected, s.Off, s.Follow = 9, 9, 0, false }},
		{[]string{"home", "ctrl+d", "ctrl+d"}, func(s *state) { s.Sel, s.Selected, s.Off, s.Follow = 18, 18, 9, false }},
		{[]string{"g", "G"}, func(s *state) {}},
		{[]string{"g", "end"}, func(s *state) {}},
		{[]string{"n"}, func(s *state) { s.Notes = true }},
		{[]string{"s"}, func(s *state) { s.Stderr = true }},
		{[]string{"s", "s"}, func(s *state) {}},
		{[]string{"space"}, func(s *state) {}}, // not an operation
		{[]string{"/"}, func(s *state) { s.Editing = true }},
		{[]string{"/", "e", "r", "r"}, func(s *state) { s.Editing, s.Bar = true, "err" }},
		{[]string{"/", "e", "r", "r", "backspace"}, func(s *state) { s.Editing, s.Bar = true, "er" }},
		{[]string{"/", "e", "r", "r", "ctrl+u"}, func(s *state) { s.Editing = true }},
		{[]string{"/", "e", "r", "r", "esc"}, func(s *state) {}},
		{[]string{"/", "j", "k", "g"}, func(s *state) { s.Editing, s.Bar = true, "jkg" }},
		{[]string{"/", "s", "t", "a", "t", "u", "s", ":", "e", "r", "r", "o", "r", "enter"}, func(s *state) {
			s.Applied, s.Bar, s.Rows, s.Sel, s.Selected, s.Off = "status:error", "status:error", 8, 7, 39, 0
		}},
		{[]string{"/", "s", "t", "a", "t", "u", "s", ":", "x", "enter"}, func(s *state) {
			s.Editing, s.Bar = true, "status:x"
			s.BarErr = `bad filter: status:"x" at column 8: want one of ok, error, tool-error, input-required, pending, cancelled, late`
		}},
		{[]string{"/", "s", "t", "a", "t", "u", "s", ":", "x", "enter", "esc"}, func(s *state) {}},
		{[]string{"/", "i", "d", ":", "7", "enter", "/", "ctrl+u", "enter"}, func(s *state) {}},
	} {
		t.Run(join(tc.keys), func(t *testing.T) {
			t.Parallel()
			m, _ := tuitest.Send(forty(t), tc.keys...)
			want := base
			tc.want(&want)
			if diff := cmp.Diff(want, stateOf(m)); diff != "" {
				t.Errorf("after %v (-want +got):\n%s", tc.keys, diff)
			}
		})
	}
}

func join(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ","
		}
		s += k
	}
	return s
}

func TestCapturing(t *testing.T) {
	t.Parallel()
	m := forty(t)
	if m.Capturing() || len(m.Bindings()) != len(m.keys.browsing()) {
		t.Fatalf("Capturing before / = %v with %d bindings", m.Capturing(), len(m.Bindings()))
	}
	m, _ = tuitest.Send(m, "/")
	if !m.Capturing() || len(m.Bindings()) != len(m.keys.editing()) {
		t.Fatalf("Capturing after / = %v with %d bindings", m.Capturing(), len(m.Bindings()))
	}
	m, _ = tuitest.Send(m, "esc")
	if m.Capturing() {
		t.Fatal("Capturing after esc")
	}
}

func TestInspect(t *testing.T) {
	t.Parallel()
	m, _ := tuitest.Send(forty(t), "k", "k")
	_, cmd := m.Update(tuitest.Press("enter"))
	if cmd == nil {
		t.Fatal("enter gave no command")
	}
	if diff := cmp.Diff(tea.Msg(ui.InspectMsg{Call: 37}), cmd()); diff != "" {
		t.Errorf("enter (-want +got):\n%s", diff)
	}
	if _, cmd := New(ui.NewTheme(true)).Update(tuitest.Press("enter")); cmd != nil {
		t.Errorf("enter on an empty stream gave %v", cmd())
	}
}

func TestMouseWheel(t *testing.T) {
	t.Parallel()
	m, _ := forty(t).Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.sel != 36 || m.follow {
		t.Errorf("wheel up: sel %d follow %v, want 36 false", m.sel, m.follow)
	}
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.sel != 39 || m.follow {
		t.Errorf("wheel down: sel %d follow %v, want 39 false", m.sel, m.follow)
	}
}

func TestPaste(t *testing.T) {
	t.Parallel()
	m, _ := forty(t).Update(tea.PasteMsg{Content: "status:error"})
	if m.bar != "" {
		t.Errorf("a paste outside the bar set it to %q", m.bar)
	}
	m, _ = tuitest.Send(m, "/")
	m, _ = m.Update(tea.PasteMsg{Content: "status:error"})
	m, _ = tuitest.Send(m, "enter")
	if m.Filter() != "status:error" || len(m.ix.rows) != 8 {
		t.Errorf("pasted filter %q shows %d rows", m.Filter(), len(m.ix.rows))
	}
}
