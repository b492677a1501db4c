package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestCheckFigures measures `mcptrail check` (the whole process) on
// 200k-frame captures: 100k pipelined tools/call and their answers, with
// frames of 100 B, 256 B and 1 KiB (written as they are made: a capture
// held in this process would count in the child's peak RSS). The
// target is ≤ 0.5 s and ≤ 100 MB peak RSS; MCPTRAIL_CHECKFIG=1 fails past
// it, =report only logs.
func TestCheckFigures(t *testing.T) {
	mode := os.Getenv("MCPTRAIL_CHECKFIG")
	if mode == "" {
		t.Skip("set MCPTRAIL_CHECKFIG=1 to measure check's figures")
	}
	dir := t.TempDir()
	paths := map[string]string{}
	for _, size := range []int{100, 256, 1024} {
		name := fmt.Sprintf("%d B", size)
		paths[name] = filepath.Join(dir, fmt.Sprintf("sized-%d.jsonl", size))
		memCapture(t, paths[name], sizedCapture(100_000, size))
	}
	const runs = 5
	for _, name := range []string{"100 B", "256 B", "1024 B"} {
		var walls, cpus []time.Duration
		var rss []int64
		for range runs {
			wall, cpu, peak := runFigure(t, "check", "--max-duration", "1h", "--expect-no-pending", paths[name])
			walls, cpus, rss = append(walls, wall), append(cpus, cpu), append(rss, peak)
		}
		slices.Sort(walls)
		slices.Sort(cpus)
		slices.Sort(rss)
		wall, cpu, peak := walls[runs/2], cpus[runs/2], rss[runs/2]
		t.Logf("check of 200k frames (%s): %v wall, %v user+sys, %5.1f MiB peak RSS (median of %d; walls %v)",
			name, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(peak)/(1<<20), runs, walls)
		if mode != "report" && (wall > 500*time.Millisecond || peak > 100e6) {
			t.Errorf("check of 200k frames (%s): %v, %d MB peak RSS; want ≤ 0.5 s, ≤ 100 MB", name, wall, peak/1e6)
		}
	}
}
