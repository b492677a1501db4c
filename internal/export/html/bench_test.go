package htmlexport

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// benchCapture returns a capture of n pipelined tools/call requests
// followed by their n results (2n frames), as the tap writes it: the
// capture of the json export's BenchmarkExport200k, for comparable figures.
func benchCapture(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: "bench", Transport: "stdio", Label: "bench", Command: []string{"bench-server"}}))
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	var seq uint64
	for i := 1; i <= n; i++ {
		seq++
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello %d"},%s}}`, i, i, meta)
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), capture.C2S, []byte(line), false, "", nil))
	}
	for i := 1; i <= n; i++ {
		seq++
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","content":[{"type":"text","text":"hello %d"}]}}`, i, i)
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), capture.S2C, []byte(line), false, "", nil))
	}
	must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Second)}))
	must(w.Flush())
	return buf.Bytes()
}

// BenchmarkExportHTML200k measures the whole html export path (read,
// correlate, spool the frames, write the page) over a 200,000-frame
// capture. The target for the binary is ≤ 3 s and ≤ 150 MB peak
// RSS (docs/benchmarks.md has the figures of the binary).
func BenchmarkExportHTML200k(b *testing.B) {
	data := benchCapture(b, 100_000)
	dir := b.TempDir()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var cw countWriter
	for b.Loop() {
		cw = 0
		if _, err := export(data, &cw, dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200_000/(b.Elapsed().Seconds()/float64(b.N)), "frames/s")
	b.ReportMetric(float64(cw)/1e6, "MB-page")
}

// countWriter counts what is written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countWriter)(nil)

// TestWriteBenchCapture writes the benchmark's capture to the file named
// by MCPTRAIL_HTMLBENCH_WRITE, for measuring the binary
// (`mcptrail export -T html FILE`); it is skipped otherwise.
func TestWriteBenchCapture(t *testing.T) {
	path := os.Getenv("MCPTRAIL_HTMLBENCH_WRITE")
	if path == "" {
		t.Skip("set MCPTRAIL_HTMLBENCH_WRITE=FILE to write the 200k-frame capture")
	}
	if err := os.WriteFile(path, benchCapture(t, 100_000), 0o600); err != nil {
		t.Fatal(err)
	}
}
