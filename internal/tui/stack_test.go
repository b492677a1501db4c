package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/overlay"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestStackOrder stacks the inspector, an overlay and the help, and pops
// them with esc in the reverse order, each drawing while on top.
func TestStackOrder(t *testing.T) {
	a := opened(t, Options{})
	a, _ = update(t, a, ui.InspectMsg{Call: 1}, tuitest.Press("l"), tuitest.Press("?"))
	if len(a.stack) != 3 || !a.helping() {
		t.Fatalf("stack has %d screens, help on top %v; want inspector, ledger, help", len(a.stack), a.helping())
	}
	for _, want := range []struct {
		screen, shows string
	}{{"help", "esc to close"}, {"ledger", "Elicitation ledger"}, {"inspector", ""}} {
		if !strings.Contains(a.Render(), want.shows) {
			t.Errorf("%s on top: the screen does not show %q:\n%s", want.screen, want.shows, a.Render())
		}
		a = esc(t, a)
	}
	if len(a.stack) != 0 || !a.hasSess {
		t.Errorf("after three esc: %d screens, session open %v; want the stream", len(a.stack), a.hasSess)
	}
}

// TestStackData checks that a newer Data reaches an overlay under the
// help, and that the export prompt leaves the overlay under it drawn.
func TestStackData(t *testing.T) {
	exportNothing := func(context.Context, ui.Data, string) (string, error) { return "", nil }
	a := opened(t, Options{Export: exportNothing})
	d := a.sess.data
	d.Live = true
	a, _ = update(t, a, tuitest.Press("f"), tuitest.Press("?"), dataMsg{gen: a.gen, d: d, ok: true})
	a = esc(t, a)
	if a.overlayKind() != overlay.Findings || !strings.Contains(strings.SplitN(a.Render(), "\n", 3)[1], "● live") {
		t.Errorf("the findings overlay under the help missed the newer Data:\n%s", a.Render())
	}
	a, _ = update(t, a, tuitest.Press("e"))
	if !a.exporting() || !strings.Contains(a.Render(), "Findings") {
		t.Errorf("the export prompt hides the overlay under it:\n%s", a.Render())
	}
}

// esc presses esc and delivers the ui.BackMsg the screen on top answers
// with (the help does), as the program would.
func esc(t *testing.T, a App) App {
	t.Helper()
	a, cmd := update(t, a, tuitest.Press("esc"))
	if cmd == nil {
		return a
	}
	if msg, ok := cmd().(ui.BackMsg); ok {
		a, _ = update(t, a, msg)
	}
	return a
}
