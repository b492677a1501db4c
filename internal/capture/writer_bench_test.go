package capture

import (
	"io"
	"testing"
	"time"
)

// BenchmarkWriteLine measures encoding one frame record into a buffered
// writer that discards.
func BenchmarkWriteLine(b *testing.B) {
	at := time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)
	for _, f := range benchFrames() {
		b.Run(f.name, func(b *testing.B) {
			w := NewWriter(io.Discard)
			b.SetBytes(int64(len(f.line)))
			seq := uint64(0)
			for b.Loop() {
				seq++
				if err := w.WriteLine(TypeFrame, seq, at, S2C, f.line, false, "", nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
