package tuitest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Golden compares got, a screen's View, with testdata/NAME.golden of the
// test's package, and rewrites the file instead under -update.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), got)
}

// CheckSize fails t unless view is exactly h lines ("\n"-joined) of at
// most w cells each; a view of height 0 must be empty.
func CheckSize(t testing.TB, view string, w, h int) {
	t.Helper()
	if h <= 0 {
		if view != "" {
			t.Errorf("view at height %d is %q, want empty", h, view)
		}
		return
	}
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ui.Width(l); got > w {
			t.Errorf("line %d is %d cells wide, want at most %d: %q", i+1, got, w, l)
		}
	}
}
