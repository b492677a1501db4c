package source_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// write200k writes a finished capture of 100,000 tools/call calls (200,000
// frames) through the real Writer.
func write200k(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "big"+capture.Ext)
	tuitest.CallsCapture(b, path, 100_000)
	return path
}

// heapPeak samples the heap in use until stop.
func heapPeak() (stop func() uint64) {
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// BenchmarkOpen200k opens a finished 200,000-frame capture with the full
// rule set and reports the time to the first Data (first paint), to the
// last (the whole stream navigable), and the peak heap in use.
func BenchmarkOpen200k(b *testing.B) {
	path := write200k(b)
	runtime.GC()
	var first, full time.Duration
	var peak uint64
	for b.Loop() {
		stop := heapPeak()
		start := time.Now()
		s, err := source.Open(context.Background(), path, "", &source.Options{Rules: rules.Default()})
		if err != nil {
			b.Fatal(err)
		}
		n, calls := 0, 0
		for d := range s.Updates() {
			if n == 0 {
				first += time.Since(start)
			}
			n++
			calls = d.Snap.Calls.Len()
		}
		full += time.Since(start)
		if calls != 100_000 {
			b.Fatalf("the last Data has %d calls", calls)
		}
		peak = max(peak, stop())
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "ms-full")
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
}

// BenchmarkWatch200k lists a state directory holding one 200,000-frame
// capture and reports the time to its first row, to its row with every
// call (ns/op), and the peak heap.
func BenchmarkWatch200k(b *testing.B) {
	path := write200k(b)
	var first time.Duration
	var peak uint64
	for b.Loop() {
		stop := heapPeak()
		start := time.Now()
		h := source.Watch(context.Background(), filepath.Dir(path), nil)
		seen := false
		for l := range h.Updates() {
			if !seen && len(l) == 1 {
				seen = true
				first += time.Since(start)
			}
			if len(l) == 1 && l[0].Calls == 100_000 && !l[0].Live {
				break
			}
		}
		peak = max(peak, stop())
		h.Close()
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first-row")
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
}

// BenchmarkOpen200kRSS opens the capture in a child process (this test
// binary, running TestOpenChild) and reports its peak resident set size,
// the figure the issue bounds (150 MB for the whole TUI).
func BenchmarkOpen200kRSS(b *testing.B) {
	path := write200k(b)
	var rss int64
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOpenChild$")
		cmd.Env = append(os.Environ(), "SOURCE_OPEN_CHILD="+path)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %s", err, out.Bytes())
		}
		n, ok := testbin.MaxRSS(cmd.ProcessState)
		if !ok {
			b.Skip("no peak RSS on this platform")
		}
		rss = max(rss, n)
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(rss)/(1<<20), "MB-maxrss")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "ms-cpu")
}

// TestOpenChild is BenchmarkOpen200kRSS's child: it opens the capture
// named by SOURCE_OPEN_CHILD and reads it to the end.
func TestOpenChild(t *testing.T) {
	path := os.Getenv("SOURCE_OPEN_CHILD")
	if path == "" {
		t.Skip("run by BenchmarkOpen200kRSS")
	}
	s, err := source.Open(context.Background(), path, "", &source.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := drain(t, s)
	fmt.Println("calls", strconv.Itoa(d.Snap.Calls.Len()))
}

// BenchmarkRead200k reads the 200,000-frame capture from a pipe-like
// reader (no file: the store keeps the frames) and reports the time to
// the last Data and the peak heap.
func BenchmarkRead200k(b *testing.B) {
	data, err := os.ReadFile(write200k(b))
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	for b.Loop() {
		stop := heapPeak()
		s, err := source.Read(context.Background(), bytes.NewReader(data), "", &source.Options{Rules: rules.Default()})
		if err != nil {
			b.Fatal(err)
		}
		calls := 0
		for d := range s.Updates() {
			calls = d.Snap.Calls.Len()
		}
		peak = max(peak, stop())
		if calls != 100_000 || s.Err() != nil {
			b.Fatalf("the last Data has %d calls; err %v", calls, s.Err())
		}
		s.Close()
	}
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
}
