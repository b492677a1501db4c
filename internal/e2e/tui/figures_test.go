package tui_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// panePID is the pid of the program running in the terminal.
func (tm *term) panePID() int {
	out, err := exec.Command("tmux", "-S", tm.sock, "display-message", "-p", "-t", "t", "#{pane_pid}").Output()
	if err != nil {
		tm.t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		tm.t.Fatal(err)
	}
	return pid
}

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
		tm := startTerm(b, 120, 40, nil, bins.mcptrail, "open", path)
		tm.waitFor(`tools/call`, 30*time.Second)
		first := time.Since(launched)
		tm.keys("G")
		tm.waitFor(`\b100000\b`, 30*time.Second)
		full := time.Since(launched)
		rss, err := testbin.VmHWM(tm.panePID())
		if err != nil {
			b.Fatal(err)
		}
		before := tm.screen()
		start := time.Now()
		tm.keys("g")
		for tm.screen() == before && time.Since(start) < 10*time.Second {
			time.Sleep(time.Millisecond) // polling tmux's screen, an external process
		}
		key := time.Since(start)
		b.ReportMetric(float64(first.Milliseconds()), "ms-first-paint")
		b.ReportMetric(float64(full.Milliseconds()), "ms-navigable")
		b.ReportMetric(float64(rss)/(1<<20), "MB-peak-RSS")
		b.ReportMetric(float64(key.Microseconds())/1000, "ms-key-to-screen")
		tm.keys("q")
	}
}
