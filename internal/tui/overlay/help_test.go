package overlay

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestHelpLists checks that the help lists exactly the enabled bindings it
// is given, in order, a group at a time.
func TestHelpLists(t *testing.T) {
	t.Parallel()
	off := binding("x", "export")
	off.SetEnabled(false)
	stream := []key.Binding{binding("/", "filter"), off, binding("enter", "inspect")}
	global := []key.Binding{binding("l", "ledger"), binding("?", "help")}
	for _, tc := range []struct {
		name string
		help Help
		want []helpEntry
	}{
		{"untitled", NewHelp(ui.NewTheme(true), stream, nil, global), []helpEntry{
			{key: "/", desc: "filter"}, {key: "enter", desc: "inspect"}, {},
			{key: "l", desc: "ledger"}, {key: "?", desc: "help"},
		}},
		{"titled", NewHelpGroups(ui.NewTheme(true), HelpGroup{"Stream", stream}, HelpGroup{"Empty", []key.Binding{off}}, HelpGroup{"Global", global}), []helpEntry{
			{title: "Stream"}, {key: "/", desc: "filter"}, {key: "enter", desc: "inspect"}, {},
			{title: "Global"}, {key: "l", desc: "ledger"}, {key: "?", desc: "help"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, tc.help.entries(), cmp.AllowUnexported(helpEntry{})); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			v := sgr.ReplaceAllString(tc.help.SetSize(80, 24).View(), "")
			for _, e := range tc.want {
				if e.key != "" && !strings.Contains(v, e.key+"  ") || !strings.Contains(v, e.desc) {
					t.Errorf("view lacks %q %q:\n%s", e.key, e.desc, v)
				}
			}
			if strings.Contains(v, "export") {
				t.Errorf("view lists the disabled binding:\n%s", v)
			}
		})
	}
}

// TestHelpOverlayBindings checks the help of an overlay's own bindings:
// the ledger's has enter, the capabilities' does not.
func TestHelpOverlayBindings(t *testing.T) {
	t.Parallel()
	d := ledgerData(3)
	for _, tc := range []struct {
		kind      Kind
		wantEnter bool
	}{{Ledger, true}, {Findings, true}, {Capabilities, false}, {Tools, false}} {
		m := New(ui.NewTheme(true), tc.kind, d)
		v := NewHelp(ui.NewTheme(true), m.Bindings()).SetSize(80, 24).View()
		if got := strings.Contains(v, "jump to the stream"); got != tc.wantEnter {
			t.Errorf("overlay %s: help lists enter = %v, want %v", tc.kind, got, tc.wantEnter)
		}
	}
}

func TestHelpUpdate(t *testing.T) {
	t.Parallel()
	h := NewHelp(ui.NewTheme(true), DefaultKeyMap().bindings()).SetSize(20, 4)
	for _, k := range []string{"esc", "q", "?"} {
		if _, cmd := h.Update(tuitest.Press(k)); run(cmd) != (ui.BackMsg{}) {
			t.Errorf("%s: command = %#v, want ui.BackMsg", k, run(cmd))
		}
	}
	h, _ = h.Update(tuitest.Press("j"))
	h, _ = h.Update(tuitest.Press("down"))
	if h.(Help).top != 2 {
		t.Errorf("top after two downs = %d, want 2", h.(Help).top)
	}
	h, _ = h.Update(tuitest.Press("k"))
	if h.(Help).top != 1 {
		t.Errorf("top after up = %d, want 1", h.(Help).top)
	}
}

func TestHelpGolden(t *testing.T) {
	t.Parallel()
	km := DefaultKeyMap()
	h := NewHelpGroups(ui.NewTheme(true), HelpGroup{"Ledger", km.bindings()},
		HelpGroup{"Global", []key.Binding{binding("?", "help"), binding("ctrl+c", "quit")}})
	for _, size := range [][2]int{{80, 24}, {120, 40}, {80, 8}} {
		v := h.SetSize(size[0], size[1]).View()
		checkSize(t, v, size[0], size[1])
		golden(t, fmt.Sprintf("help-%dx%d", size[0], size[1]), v)
	}
}

// TestTinySizes checks that no overlay panics or overflows at tiny sizes,
// and that keys work there.
func TestTinySizes(t *testing.T) {
	t.Parallel()
	d := ledgerData(50)
	th := ui.NewTheme(true)
	for _, size := range [][2]int{{40, 10}, {1, 1}, {0, 0}, {0, 3}, {3, 0}, {2, 2}, {10, 4}} {
		for _, kind := range []Kind{Ledger, Capabilities, Tools, Findings} {
			m := New(th, kind, d).SetSize(size[0], size[1])
			for _, k := range []string{"G", "pgup", "down", "pgdown", "g", "enter"} {
				checkSize(t, m.View(), size[0], size[1])
				m, _ = m.Update(tuitest.Press(k))
			}
		}
		checkSize(t, NewHelp(th, DefaultKeyMap().bindings()).SetSize(size[0], size[1]).View(), size[0], size[1])
	}
}
