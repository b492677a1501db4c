package e2e_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// memSink writes a synthetic capture's frames.
type memSink struct {
	w     *capture.Writer
	bw    *bufio.Writer
	seq   uint64
	start time.Time
	err   error
}

func (m *memSink) keep(err error) {
	if err != nil && m.err == nil {
		m.err = err
	}
}

// frame writes one frame record through the capture Writer.
func (m *memSink) frame(dir capture.Dir, line []byte) {
	m.seq++
	m.keep(m.w.WriteLine(capture.TypeFrame, m.seq, m.start.Add(time.Duration(m.seq)*time.Microsecond), dir, line, false, "", nil))
}

// bigFrame writes a frame record, shaped as the Writer shapes it, whose
// message is head, n bytes x and tail, without holding it in memory (the
// test process's own peak would show in the child's rusage).
func (m *memSink) bigFrame(dir capture.Dir, head string, n int, tail string) {
	m.keep(m.w.Flush())
	m.seq++
	at := m.start.Add(time.Duration(m.seq) * time.Microsecond).Format("2006-01-02T15:04:05.000000Z")
	size := len(head) + n + len(tail)
	_, err := fmt.Fprintf(m.bw, `{"type":"frame","seq":%d,"time":"%s","dir":"%s","size":%d,"msg":%s`, m.seq, at, dir, size, head)
	m.keep(err)
	chunk := bytes.Repeat([]byte{'x'}, 64<<10)
	for left := n; left > 0; left -= len(chunk) {
		_, err := m.bw.Write(chunk[:min(left, len(chunk))])
		m.keep(err)
	}
	_, err = m.bw.WriteString(tail + "}\n")
	m.keep(err)
}

// memCapture writes a synthetic capture to path: the session record, then
// the frames body writes, then an end record.
func memCapture(tb testing.TB, path string, body func(*memSink)) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	m := &memSink{w: capture.NewWriter(bw), bw: bw, start: time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)}
	m.keep(m.w.Write(&capture.Record{Type: capture.TypeSession, Time: m.start, Format: capture.FormatVersion,
		SessionID: "memtest", Transport: "stdio", Label: "memtest", Command: []string{"memtest-server"}}))
	body(m)
	m.keep(m.w.Write(&capture.Record{Type: capture.TypeEnd, Time: m.start.Add(time.Hour)}))
	m.keep(m.w.Flush())
	m.keep(bw.Flush())
	m.keep(f.Close())
	if m.err != nil {
		tb.Fatal(m.err)
	}
}

const memInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"memtest","version":"1.0.0"}}}`
const memInitResult = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"memtest","version":"1.0.0"}}}`

// unansweredCapture: n tools/call requests, none answered (~98 bytes a
// record).
func unansweredCapture(n int) func(*memSink) {
	return func(m *memSink) {
		var line []byte
		for id := 1; id <= n; id++ {
			line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{}}}`...)
			m.frame(capture.C2S, line)
		}
	}
}

// trafficCapture: initialize, then n answered tools/call exchanges with a
// progress notification each.
func trafficCapture(n int) func(*memSink) {
	return func(m *memSink) {
		m.frame(capture.C2S, []byte(memInit))
		m.frame(capture.S2C, []byte(memInitResult))
		m.frame(capture.C2S, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		for id := 1; id <= n; id++ {
			s := strconv.Itoa(id)
			m.frame(capture.C2S, []byte(`{"jsonrpc":"2.0","id":`+s+`,"method":"tools/call","params":{"name":"search","arguments":{"query":"q`+s+`","limit":10}}}`))
			m.frame(capture.S2C, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working on `+s+`"}}`))
			m.frame(capture.S2C, []byte(`{"jsonrpc":"2.0","id":`+s+`,"result":{"content":[{"type":"text","text":"result `+s+`"}],"isError":false}}`))
		}
	}
}

// hugeCapture: one tools/call whose argument is a string of size bytes, and
// its answer.
func hugeCapture(size int) func(*memSink) {
	return func(m *memSink) {
		m.frame(capture.C2S, []byte(memInit))
		m.frame(capture.S2C, []byte(memInitResult))
		m.bigFrame(capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, size, `"}}}`)
		m.frame(capture.S2C, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`))
	}
}

// peakRSS runs the mcptrail binary with args, discarding its output, and
// returns its peak resident set size in bytes (Linux).
//
// On Linux the figure (rusage maxrss) is at least the test process's own
// peak RSS at the time of the exec, which the child inherits: a test of
// this package that holds a large file in memory inflates every later
// measurement, so tests here stream what they compare.
func peakRSS(t *testing.T, args ...string) int64 {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, args...)
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcptrail %v: %v\n%s", args, err, stderr.String())
	}
	rss, ok := testbin.MaxRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no peak RSS on this platform")
	}
	return rss
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
		body func(*memSink)
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
			// Open calls cost their packed records, not a Call and a
			// finding each (1.3 GB before issue 9, about 380 MiB after).
			if limit := int64(480 << 20); mode != "report" && c.name == "unanswered-1M" && rss > limit {
				t.Errorf("%s: %v: peak RSS %d MiB, want ≤ %d MiB", c.name, args[:len(args)-1], rss>>20, limit>>20)
			}
			_ = os.Remove(filepath.Join(dir, "out"))
		}
		_ = os.Remove(path)
	}

}

// exportPeak writes a capture with body and returns its size and the
// peak RSS of `mcptrail export -T format` of it.
func exportPeak(t *testing.T, body func(*memSink), format string) (int64, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.jsonl")
	memCapture(t, path, body)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size(), peakRSS(t, "export", "-T", format, path)
}

// TestExportHugeFrameMemory: a 32 MiB frame costs an export (and the
// capture reader under it) about twice its size, not four or five times.
func TestExportHugeFrameMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test skipped in -short mode")
	}
	const frame = 32 << 20
	for _, format := range []string{"json", "text"} {
		_, rss := exportPeak(t, hugeCapture(frame), format)
		t.Logf("-T %s of a %d MiB frame: peak RSS %d MiB", format, frame>>20, rss>>20)
		if limit := int64(frame)*5/2 + 24<<20; rss > limit {
			t.Errorf("-T %s of a %d MiB frame: peak RSS %d MiB, want ≤ %d MiB", format, frame>>20, rss>>20, limit>>20)
		}
	}
}

// TestExportOTLPMemory: -T otlp streams its spans, so its memory does not
// follow the number of operations (it held every span and the whole
// encoded line: 16x the capture).
func TestExportOTLPMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test skipped in -short mode")
	}
	for _, format := range []string{"otlp", "events"} {
		size, rss := exportPeak(t, trafficCapture(30_000), format)
		t.Logf("-T %s of a %d MB capture: peak RSS %d MiB", format, size/1e6, rss>>20)
		if limit := int64(80 << 20); rss > limit {
			t.Errorf("-T %s of a %d MB capture: peak RSS %d MiB, want ≤ %d MiB", format, size/1e6, rss>>20, limit>>20)
		}
	}
}
