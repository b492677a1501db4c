package index

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStatsFigures runs stats --since 30d (by tool) over the index in
// MCPTRAIL_FIGURES_DIR (see TestFigures, which builds it).
func BenchmarkStatsFigures(b *testing.B) {
	state := os.Getenv("MCPTRAIL_FIGURES_DIR")
	if state == "" {
		b.Skip("set MCPTRAIL_FIGURES_DIR (see TestFigures)")
	}
	ix, err := Open(state, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(filepath.Join(state, "sessions")); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Stats(Filter{Since: time.Now().Add(-30 * 24 * time.Hour)}, ByTool); err != nil {
			b.Fatal(err)
		}
	}
}
