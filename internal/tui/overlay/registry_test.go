package overlay

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestSpecs checks every registered overlay: a kind of its own, an
// enabled key with help that no other overlay takes, and a constructor
// whose overlay has the kind, draws in its size and closes on esc.
func TestSpecs(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "elicit-seed")
	th := ui.NewTheme(true)
	kinds, keys := map[Kind]bool{}, map[string]Kind{}
	for _, s := range Specs() {
		if s.Kind == "" || kinds[s.Kind] {
			t.Errorf("spec kind %q is empty or taken", s.Kind)
		}
		kinds[s.Kind] = true
		if !s.Key.Enabled() || len(s.Key.Keys()) == 0 || s.Key.Help().Desc == "" {
			t.Errorf("%s: key %v is disabled or has no help", s.Kind, s.Key.Keys())
		}
		for _, k := range s.Key.Keys() {
			if other, ok := keys[k]; ok {
				t.Errorf("%s: key %q opens %s too", s.Kind, k, other)
			}
			keys[k] = s.Kind
		}
		if s.New == nil {
			t.Errorf("%s: no constructor", s.Kind)
			continue
		}
		m := s.New(th, d, nil).SetSize(80, 24)
		if m.Kind() != s.Kind || New(th, s.Kind, d).Kind() != s.Kind {
			t.Errorf("%s: the overlay's kind is %q", s.Kind, m.Kind())
		}
		checkSize(t, m.View(), 80, 24)
		if _, cmd := m.Update(tuitest.Press("esc")); run(cmd) != (ui.BackMsg{}) {
			t.Errorf("%s: esc sends %#v, want ui.BackMsg", s.Kind, run(cmd))
		}
	}
	if New(th, "no-such-overlay", d) != nil {
		t.Error("New of an unregistered kind is not nil")
	}
}
