package stream

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestPreviewColumn checks the answer column from 120 columns on: an
// error's message at once, a result's first text once the command read
// it from the capture; none below 120, and no command either.
func TestPreviewColumn(t *testing.T) {
	t.Parallel()
	d := tuitest.Fixture(t, "errors")
	m := New(ui.NewTheme(false)).SetSize(140, 12).SetData(d)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "-32602 Unknown tool") {
		t.Errorf("no error message in the answer column:\n%s", v)
	}
	cmd := m.PreviewCmd()
	if cmd == nil {
		t.Fatal("no command reads the results on screen")
	}
	m = m.SetPreviews(cmd().(PreviewMsg))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "error: ") { // get_weather's tool-error result
		t.Errorf("no result text in the answer column:\n%s", v)
	}
	if m.PreviewCmd() != nil {
		t.Error("a second command reads the same results again")
	}
	if n := New(ui.NewTheme(false)).SetSize(100, 12).SetData(d); n.PreviewCmd() != nil || strings.Contains(n.View(), "answer") {
		t.Error("an answer column below 120 columns")
	}
}
