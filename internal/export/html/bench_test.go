package htmlexport

import (
	"io"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// BenchmarkExportHTML200k measures the whole html export path (read,
// correlate, spool the frames, write the page) over a 200,000-frame
// capture. The target for the binary is ≤ 3 s and ≤ 150 MB peak
// RSS (docs/benchmarks.md has the figures of the binary).
func BenchmarkExportHTML200k(b *testing.B) {
	data := testbin.PipelinedCapture(b, 100_000)
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
	if err := os.WriteFile(path, testbin.PipelinedCapture(t, 100_000), 0o600); err != nil {
		t.Fatal(err)
	}
}
