package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// sizedCapture: n pipelined tools/call requests, then their n results
// (2n frames), every frame exactly size bytes (the text argument and the
// result text pad them); size must leave room for the JSON around them.
func sizedCapture(n, size int) func(*memSink) {
	return func(m *memSink) {
		var line []byte
		frame := func(dir capture.Dir, head string, id int, mid, tail string) {
			line = strconv.AppendInt(append(line[:0], head...), int64(id), 10)
			line = append(line, mid...)
			pad := size - len(line) - len(tail)
			line = append(line, strings.Repeat("x", max(pad, 0))...)
			m.frame(dir, append(line, tail...))
		}
		for id := 1; id <= n; id++ {
			frame(capture.C2S, `{"jsonrpc":"2.0","id":`, id, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, `"}}}`)
		}
		for id := 1; id <= n; id++ {
			frame(capture.S2C, `{"jsonrpc":"2.0","id":`, id, `,"result":{"content":[{"type":"text","text":"`, `"}]}}`)
		}
	}
}

// TestExportJSONFigures measures `mcptrail export -T json` (whole process,
// output to /dev/null) of 200,000-frame captures whose frames are 100,
// 256 and 1024 bytes: wall time and peak RSS, the median of five runs. It
// runs only when MCPTRAIL_EXPORTFIG is set; MCPTRAIL_EXPORTFIG=report
// prints the figures without checking them against the targets (≤ 1 s,
// ≤ 100 MB). MCPTRAIL_EXPORTFIG_FORMAT measures another format;
// MCPTRAIL_EXPORTFIG_WRITE=DIR only writes the captures into DIR.
func TestExportJSONFigures(t *testing.T) {
	if dir := os.Getenv("MCPTRAIL_EXPORTFIG_WRITE"); dir != "" {
		// Only write the captures, for profiling the binary on them.
		for _, size := range []int{100, 256, 1024} {
			memCapture(t, filepath.Join(dir, fmt.Sprintf("sized-%d.jsonl", size)), sizedCapture(100_000, size))
		}
		return
	}
	mode := os.Getenv("MCPTRAIL_EXPORTFIG")
	if mode == "" {
		t.Skip("set MCPTRAIL_EXPORTFIG=1 to measure the JSON export's figures")
	}
	format := os.Getenv("MCPTRAIL_EXPORTFIG_FORMAT")
	if format == "" {
		format = "json"
	}
	const runs = 5
	for _, size := range []int{100, 256, 1024} {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("sized-%d.jsonl", size))
		memCapture(t, path, sizedCapture(100_000, size))
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		var walls, cpus []time.Duration
		var rss []int64
		for range runs {
			wall, cpu, peak := runFigure(t, "export", "-T", format, path)
			walls, cpus, rss = append(walls, wall), append(cpus, cpu), append(rss, peak)
		}
		slices.Sort(walls)
		slices.Sort(cpus)
		slices.Sort(rss)
		wall, cpu, peak := walls[runs/2], cpus[runs/2], rss[runs/2]
		t.Logf("-T %s, 200k frames of %4d B (%5.1f MB): %v wall, %v user+sys, %5.1f MiB peak RSS (median of %d; walls %v)",
			format, size, float64(st.Size())/1e6, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(peak)/(1<<20), runs, walls)
		if mode != "report" && (wall > time.Second || peak > 100e6) {
			t.Errorf("-T %s of 200k frames of %d B: %v, %d MB peak RSS; want ≤ 1 s, ≤ 100 MB", format, size, wall, peak/1e6)
		}
		_ = os.Remove(path)
	}
}

// runFigure runs the mcptrail binary with args, its output discarded, and
// returns its wall time, its user+system CPU time and its peak RSS.
func runFigure(t *testing.T, args ...string) (time.Duration, time.Duration, int64) {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail %v: %v\n%s", args, err, stderr.String())
	}
	wall := time.Since(start)
	rss, ok := testbin.MaxRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no peak RSS on this platform")
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss
}
