package tui_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// writeBigCapture writes a finished capture of n tools/call round trips
// (2n frames) to path, through the real Writer.
func writeBigCapture(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	w := capture.NewWriter(bw)
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "big200k", Transport: "stdio", Label: "big", Command: []string{"server"}}); err != nil {
		tb.Fatal(err)
	}
	seq := uint64(0)
	at := t0
	frame := func(dir capture.Dir, b []byte) {
		seq++
		at = at.Add(time.Millisecond)
		if err := w.Append(&capture.Line{Type: capture.TypeFrame, Seq: seq, Time: at, Dir: dir, Bytes: b}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		frame(capture.C2S, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"i":%d}}}`, i, i))
		frame(capture.S2C, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echo %d"}]}}`, i, i))
	}
	if err := w.Write(&capture.Record{Type: capture.TypeEnd, Seq: seq + 1, Time: at}); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
}

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

// vmHWM is the peak resident set of process pid, in bytes.
func vmHWM(tb testing.TB, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Fatal("no VmHWM")
	return 0
}

// BenchmarkOpen200k times `mcptrail open` on a finished capture of 200k
// frames (100k calls) in a 120×40 terminal: until the first rows show
// (first paint), until End shows the last call (the whole stream
// navigable), the peak RSS, and how long a key press takes to change the
// screen. Figures, not pass/fail: run with -bench Open200k -benchtime 1x.
func BenchmarkOpen200k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	writeBigCapture(b, path, 100_000)
	for b.Loop() {
		launched := time.Now()
		tm := startTerm(b, 120, 40, nil, bins.mcptrail, "open", path)
		tm.waitFor(`tools/call`, 30*time.Second)
		first := time.Since(launched)
		tm.keys("G")
		tm.waitFor(`\b100000\b`, 30*time.Second)
		full := time.Since(launched)
		rss := vmHWM(b, tm.panePID())
		before := tm.screen()
		start := time.Now()
		tm.keys("g")
		for tm.screen() == before && time.Since(start) < 10*time.Second {
			time.Sleep(time.Millisecond)
		}
		key := time.Since(start)
		b.ReportMetric(float64(first.Milliseconds()), "ms-first-paint")
		b.ReportMetric(float64(full.Milliseconds()), "ms-navigable")
		b.ReportMetric(float64(rss)/(1<<20), "MB-peak-RSS")
		b.ReportMetric(float64(key.Microseconds())/1000, "ms-key-to-screen")
		tm.keys("q")
	}
}
