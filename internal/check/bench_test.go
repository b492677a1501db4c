package check

import (
	"bytes"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// BenchmarkCheck200k checks testbin.PipelinedCapture's 200k frames, read
// on one goroutine (the CLI reads a batch ahead on another).
func BenchmarkCheck200k(b *testing.B) {
	data := testbin.PipelinedCapture(b, 100_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := capture.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		c := New(nil)
		if err := c.Check(r, "bench"); err != nil {
			b.Fatal(err)
		}
		if n := len(c.Report().Results[0].Items); n != 0 {
			b.Fatalf("%d items, want none", n)
		}
	}
}
