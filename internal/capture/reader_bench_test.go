package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

// BenchmarkReadFrames measures the Reader's fast path: frame records of
// each benchFrames shape, and stderr records whose text holds escapes.
func BenchmarkReadFrames(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"session","time":"2026-07-28T12:00:00.123456789Z","format":1,"session_id":"0123456789abcdef","transport":"stdio"}` + "\n")
	seq := 0
	for range 100 {
		for _, f := range benchFrames() {
			seq++
			fmt.Fprintf(&buf, `{"type":"frame","seq":%d,"time":"2026-07-28T12:00:00.124456789Z","dir":"s2c","size":%d,"msg":%s}`+"\n", seq, len(f.line), f.line)
		}
		fmt.Fprintf(&buf, `{"type":"stderr","time":"2026-07-28T12:00:00.124456789Z","size":30,"text":"warn: \"slow\" r\u00e9ponse\tx\n"}`+"\n")
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		var rec Record
		n := 0
		for {
			if err := r.Next(&rec); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
			n++
		}
		if n != 400 {
			b.Fatalf("read %d records, want 400", n)
		}
	}
}
