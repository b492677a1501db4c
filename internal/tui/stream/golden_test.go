package stream

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

var update = flag.Bool("update", false, "rewrite the View goldens in testdata")

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden (run go test -update): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// checkSize fails unless view is exactly w cells by h lines at most.
func checkSize(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if h == 0 {
		if view != "" {
			t.Errorf("View at height 0 = %q, want empty", view)
		}
		return
	}
	if len(lines) != h {
		t.Errorf("View has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if ui.Width(l) > w {
			t.Errorf("line %d is %d cells wide, want at most %d: %q", i+1, ui.Width(l), w, l)
		}
	}
}

// screen returns a stream of fixture name at size w×h, after the keys.
func screen(t *testing.T, name string, w, h int) Model {
	t.Helper()
	return New(ui.NewTheme(true)).SetSize(w, h).SetData(tuitest.Fixture(t, name))
}

func TestViewGoldens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fixture string
		keys    []string
	}{
		{"elicit-seed", "elicit-seed", nil},
		{"legacy", "legacy-2025-11-25", nil},
		{"expanded", "mrtr-chain", []string{"g", "j", "space"}},
		{"filter-error", "elicit-seed", []string{"/", "s", "t", "a", "t", "u", "s", ":", "o", "k", "k", "enter"}},
		{"filter-decline", "elicit-seed", []string{"/", "e", "l", "i", "c", "i", "t", ":", "d", "e", "c", "l", "i", "n", "e", "enter"}},
		{"paused", "elicit-ledger-edges", []string{"g", "j"}},
		{"cancel-late", "cancel-late", nil},
		{"errors", "errors", []string{"k"}},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				m := screen(t, tc.fixture, size[0], size[1])
				m = press(t, m, tc.keys...)
				v := m.View()
				checkSize(t, v, size[0], size[1])
				golden(t, tc.name+"-"+sizeName(size), v)
			})
		}
	}
}

func sizeName(s [2]int) string {
	return strings.Join([]string{itoa(s[0]), itoa(s[1])}, "x")
}
