package tuitest

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPress checks that every key Press makes reads back as its name, the
// way key.Matches reads it, and that a shifted letter is what the
// terminal decoder sends.
func TestPress(t *testing.T) {
	t.Parallel()
	names := []string{"j", "G", "?", "/", "1", "é", "ctrl+u", "ctrl+c", "loAd", "a b"}
	names = append(names, "up", "down", "left", "right", "pgup", "pgdown", "home", "end",
		"enter", "esc", "tab", "shift+tab", "backspace", "space")
	for _, n := range names {
		if got := Press(n).String(); got != n {
			t.Errorf("Press(%q) reads as %q", n, got)
		}
	}
	if got := Press("G"); got.Code != 'g' || got.ShiftedCode != 'G' || got.Mod != tea.ModShift {
		t.Errorf("Press(\"G\") = %+v, want code g shifted to G", got)
	}
	if got := len(Keys("a", "b")); got != 2 {
		t.Errorf("Keys gave %d messages, want 2", got)
	}
}
