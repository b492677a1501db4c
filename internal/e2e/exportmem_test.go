package e2e_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// memCapture writes a synthetic capture to path: the session record, then
// the frames body writes through frame, then an end record.
func memCapture(tb testing.TB, path string, body func(frame func(dir capture.Dir, line []byte))) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := capture.NewWriter(bw)
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	var werr error
	must := func(err error) {
		if err != nil && werr == nil {
			werr = err
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: "memtest", Transport: "stdio", Label: "memtest", Command: []string{"memtest-server"}}))
	var seq uint64
	body(func(dir capture.Dir, line []byte) {
		seq++
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), dir, line, false, "", nil))
	})
	must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Hour)}))
	must(w.Flush())
	must(bw.Flush())
	must(f.Close())
	if werr != nil {
		tb.Fatal(werr)
	}
}

const memInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"memtest","version":"1.0.0"}}}`
const memInitResult = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"memtest","version":"1.0.0"}}}`

// unansweredCapture: n tools/call requests, none answered (~98 bytes a
// record).
func unansweredCapture(n int) func(func(capture.Dir, []byte)) {
	return func(frame func(capture.Dir, []byte)) {
		var line []byte
		for id := 1; id <= n; id++ {
			line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{}}}`...)
			frame(capture.C2S, line)
		}
	}
}

// trafficCapture: initialize, then n answered tools/call exchanges with a
// progress notification each.
func trafficCapture(n int) func(func(capture.Dir, []byte)) {
	return func(frame func(capture.Dir, []byte)) {
		frame(capture.C2S, []byte(memInit))
		frame(capture.S2C, []byte(memInitResult))
		frame(capture.C2S, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		for id := 1; id <= n; id++ {
			s := strconv.Itoa(id)
			frame(capture.C2S, []byte(`{"jsonrpc":"2.0","id":`+s+`,"method":"tools/call","params":{"name":"search","arguments":{"query":"q`+s+`","limit":10}}}`))
			frame(capture.S2C, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working on `+s+`"}}`))
			frame(capture.S2C, []byte(`{"jsonrpc":"2.0","id":`+s+`,"result":{"content":[{"type":"text","text":"result `+s+`"}],"isError":false}}`))
		}
	}
}

// hugeCapture: one tools/call whose argument is a string of size bytes, and
// its answer.
func hugeCapture(size int) func(func(capture.Dir, []byte)) {
	return func(frame func(capture.Dir, []byte)) {
		frame(capture.C2S, []byte(memInit))
		frame(capture.S2C, []byte(memInitResult))
		line := make([]byte, 0, size+200)
		line = append(line, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`...)
		line = append(line, strings.Repeat("x", size)...)
		line = append(line, `"}}}`...)
		frame(capture.C2S, line)
		frame(capture.S2C, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`))
	}
}

// peakRSS runs the mcptrail binary with args, discarding its output, and
// returns its peak resident set size in bytes (Linux).
func peakRSS(t *testing.T, args ...string) int64 {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail %v: %v\n%s", args, err, stderr.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	return int64(ru.Maxrss) * 1024
}

// TestExportMemory measures the peak RSS of every export of three
// synthetic captures. It runs only when MCPTRAIL_EXPORTMEM is set (it
// writes ~250 MB of captures); MCPTRAIL_EXPORTMEM=report prints the
// figures without checking them.
func TestExportMemory(t *testing.T) {
	if dir := os.Getenv("MCPTRAIL_EXPORTMEM_WRITE"); dir != "" {
		// Small versions of the captures, for comparing outputs.
		memCapture(t, filepath.Join(dir, "unanswered.jsonl"), unansweredCapture(2000))
		memCapture(t, filepath.Join(dir, "traffic.jsonl"), trafficCapture(2000))
		memCapture(t, filepath.Join(dir, "frame.jsonl"), hugeCapture(1<<20))
		return
	}
	mode := os.Getenv("MCPTRAIL_EXPORTMEM")
	if mode == "" {
		t.Skip("set MCPTRAIL_EXPORTMEM=1 to measure export memory")
	}
	dir := t.TempDir()
	cases := []struct {
		name string
		body func(func(capture.Dir, []byte))
	}{
		{"unanswered-1M", unansweredCapture(1_000_000)},
		{"traffic-100k", trafficCapture(100_000)},
		{"frame-100MB", hugeCapture(100 << 20)},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".jsonl")
		memCapture(t, path, c.body)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"export", "-T", "json", path},
			{"export", "-T", "text", path},
			{"export", "-T", "events", path},
			{"export", "-T", "otlp", path},
			{"ledger", path},
		} {
			start := time.Now()
			rss := peakRSS(t, args...)
			t.Logf("%-14s %5.1f MB  %-24s peak RSS %6.1f MB  %v", c.name, float64(st.Size())/1e6,
				strings.Join(args[:len(args)-1], " "), float64(rss)/(1<<20), time.Since(start).Round(time.Millisecond))
			_ = os.Remove(filepath.Join(dir, "out"))
		}
		_ = os.Remove(path)
	}
	_ = fmt.Sprint
}

