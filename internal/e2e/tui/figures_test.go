package tui_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// BenchmarkOpen200k times `mcptrail open` on a finished capture of 200k
// frames (100k calls) in a 120×40 terminal: until the first rows show
// (first paint), until End shows the last call (the whole stream
// navigable), the peak RSS, and how long a key press takes to change the
// screen. Figures, not pass/fail: run with -bench Open200k -benchtime 1x.
func BenchmarkOpen200k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	tuitest.CallsCapture(b, path, 100_000)
	for b.Loop() {
		launched := time.Now()
		tm := testbin.StartTerm(b, 120, 40, nil, bins.mcptrail, "open", path)
		tm.WaitFor(`tools/call`, 30*time.Second)
		first := time.Since(launched)
		tm.Keys("G")
		tm.WaitFor(`\b100000\b`, 30*time.Second)
		full := time.Since(launched)
		rss, err := testbin.VmHWM(tm.PanePID())
		if err != nil {
			b.Fatal(err)
		}
		before := tm.Screen()
		start := time.Now()
		tm.Keys("g")
		for tm.Screen() == before && time.Since(start) < 10*time.Second {
			time.Sleep(time.Millisecond) // polling tmux's screen, an external process
		}
		key := time.Since(start)
		b.ReportMetric(float64(first.Milliseconds()), "ms-first-paint")
		b.ReportMetric(float64(full.Milliseconds()), "ms-navigable")
		b.ReportMetric(float64(rss)/(1<<20), "MB-peak-RSS")
		b.ReportMetric(float64(key.Microseconds())/1000, "ms-key-to-screen")
		tm.Keys("q")
	}
}
