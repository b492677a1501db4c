package index

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFigures measures the figures when MCPTRAIL_FIGURES_DIR names
// a directory: it writes 1,000 captures of 1,000 frames to its sessions
// folder (once; an existing folder is reused), removes its index, and
// reports the first sync (the index built), a warm sessions query and
// stats --since 30d. The same directory serves the binary:
//
//	MCPTRAIL_FIGURES_DIR=/tmp/figs go test -run TestFigures -v ./internal/index/
//	MCPTRAIL_HOME=/tmp/figs mcptrail sessions; MCPTRAIL_HOME=/tmp/figs mcptrail stats --since 30d
//
// It asserts nothing about time: the figures are reported, not gated.
func TestFigures(t *testing.T) {
	state := os.Getenv("MCPTRAIL_FIGURES_DIR")
	if state == "" {
		t.Skip("set MCPTRAIL_FIGURES_DIR to generate 1,000 captures there and measure")
	}
	dir := filepath.Join(state, "sessions")
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		start := time.Now()
		if _, err := generate(dir, genOptions{Sessions: 1000, Frames: 1000, Newest: time.Now().UTC(),
			Spacing: 40 * time.Minute, Seed: 2026}); err != nil {
			t.Fatal(err)
		}
		t.Logf("generated 1,000 captures in %v", time.Since(start))
	}
	if err := os.Remove(filepath.Join(state, FileName)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	ix, err := Open(state, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	start := time.Now()
	n, err := ix.Sync(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first sync (index built from %d captures): %v", n, time.Since(start))
	for range 3 {
		start = time.Now()
		if _, err := ix.Sync(dir); err != nil {
			t.Fatal(err)
		}
		ss, err := ix.Sessions(Filter{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("warm sync + sessions (%d rows): %v", len(ss), time.Since(start))
		start = time.Now()
		if _, err := ix.Sync(dir); err != nil {
			t.Fatal(err)
		}
		tb, err := ix.Stats(Filter{Since: time.Now().Add(-30 * 24 * time.Hour)}, ByTool)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("warm sync + stats --since 30d (%d rows): %v", len(tb.Rows), time.Since(start))
	}
}
