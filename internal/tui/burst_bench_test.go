package tui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// BenchmarkBurst20k is the timing harness of a live burst: the real
// mcptrail proxy, in another process, relays 20,000 pipelined tools/call
// requests to a fast server while the app follows its capture. After every
// Data the source delivers, the app also gets a key press (k, then G: pause
// and resume follow), and each Update+View is timed. A key press waits at
// most for the message before it, so the worst key latency is bounded by
// the largest Data time plus the largest key time; both are reported. The
// open stream must end with every call present.
func BenchmarkBurst20k(b *testing.B) {
	const n = 20_000
	dir := b.TempDir()
	mt, err := testbin.Build(dir, testbin.Mcptrail, false)
	if err != nil {
		b.Fatal(err)
	}
	fast, err := testbin.Build(dir, testbin.Module+"/internal/e2e/fastserver", false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dataTimes, keyTimes := burstOnce(b, mt, fast, n)
		b.ReportMetric(float64(len(dataTimes)), "data-msgs")
		b.ReportMetric(ms(slices.Max(dataTimes)), "ms-max-data-update+view")
		b.ReportMetric(ms(slices.Max(keyTimes)), "ms-max-key-update+view")
		b.ReportMetric(ms(slices.Max(dataTimes)+slices.Max(keyTimes)), "ms-worst-key-latency")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// burstOnce runs one burst and returns the Update+View times.
func burstOnce(b *testing.B, mt, fast string, n int) (dataTimes, keyTimes []time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	capPath := filepath.Join(b.TempDir(), "burst.jsonl")
	cmd := exec.CommandContext(ctx, mt, "--capture", capPath, "--", fast)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { // on a failure, the proxy is killed, not waited for
		if b.Failed() {
			cancel()
		}
		cmd.Wait()
	}()
	for _, err := os.Stat(capPath); err != nil; _, err = os.Stat(capPath) {
		time.Sleep(time.Millisecond)
	}
	src, err := source.Open(ctx, capPath, "", &source.Options{Rules: rules.Default()})
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	a := New(ctx, Options{Path: capPath})
	a, _ = update(b, a, tea.WindowSizeMsg{Width: 120, Height: 40})
	a, _ = update(b, a, openedMsg{gen: 1, src: src, name: capPath})
	go io.Copy(io.Discard, stdout) // every answer, then EOF
	go func() {
		bw := bufio.NewWriterSize(stdin, 64<<10)
		for id := 1; id <= n; id++ {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"i":%d}}}`+"\n", id, id)
		}
		bw.Flush()
		stdin.Close() // the server answers what it read, then exits
	}()
	keys := []tea.KeyPressMsg{tuitest.Press("k"), tuitest.Press("G")}
	for d := range src.Updates() {
		start := time.Now()
		a, _ = update(b, a, dataMsg{gen: 1, d: d, ok: true})
		_ = a.Render()
		dataTimes = append(dataTimes, time.Since(start))
		start = time.Now()
		a, _ = update(b, a, keys[len(keyTimes)%2])
		_ = a.Render()
		keyTimes = append(keyTimes, time.Since(start))
	}
	if err := src.Err(); err != nil {
		b.Fatal(err)
	}
	if got := a.sess.data.Snap.Calls.Len(); got != n {
		b.Fatalf("the stream ends with %d calls, want %d", got, n)
	}
	return dataTimes, keyTimes
}
