package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestEveryScreenHints checks that every screen a session shows — the
// hub, the stream, the inspector, the help and every registered overlay — names
// its keys: it has hints, and its last line (the footer) shows the first.
// A new overlay with no Hints, or one whose View drops the footer, fails.
func TestEveryScreenHints(t *testing.T) {
	base := opened(t, Options{})
	type screen struct {
		name  string
		a     App
		hints []ui.Hint
	}
	var screens []screen
	screens = append(screens, screen{"stream", base, base.sess.stream.Hints()})
	hub := base
	hub.inHub = true
	screens = append(screens, screen{"hub", hub, hub.hub.Hints()})
	a, _ := update(t, base, ui.InspectMsg{Call: 1})
	screens = append(screens, screen{"inspector", a, a.stack.top().hints()})
	a, _ = update(t, base, tuitest.Press("?"))
	screens = append(screens, screen{"help", a, a.stack.top().hints()})
	for _, s := range overlay.Specs() {
		a, _ := update(t, base, tuitest.Press(s.Key.Keys()[0]))
		if a.overlayKind() != s.Kind {
			t.Fatalf("%s: overlay %q up", s.Kind, a.overlayKind())
		}
		screens = append(screens, screen{string(s.Kind), a, a.stack.top().hints()})
	}
	for _, w := range []int{80, 120} {
		for _, s := range screens {
			a, _ := update(t, s.a, tea.WindowSizeMsg{Width: w, Height: 24})
			if len(s.hints) == 0 || s.hints[0].Key == "" {
				t.Errorf("%s: no hints (%v)", s.name, s.hints)
				continue
			}
			lines := strings.Split(ansi.Strip(a.Render()), "\n")
			last := lines[len(lines)-1]
			if want := s.hints[0].Key + " " + s.hints[0].Desc; !strings.Contains(last, want) {
				t.Errorf("%s at %d columns: footer %q lacks %q", s.name, w, last, want)
			}
		}
	}
}
