package jsonexport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// exportJSON streams one capture through the store into a Writer.
func exportJSON(data []byte, out io.Writer, spoolDir string) error {
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	jw := New(out, &Options{SpoolDir: spoolDir})
	defer jw.Close()
	st := store.New(&store.Options{OnFrame: jw.Frame})
	st.Ingest(r.Header())
	var rec capture.Record
	for {
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		st.Ingest(&rec)
	}
	st.SetDamage(r.Damage())
	return jw.Finish(st.Final())
}

// BenchmarkExport200k measures the whole json export path (read, correlate,
// encode) over a 200,000-frame capture: the mixed capture of testbin.PipelinedCapture,
// then 100k pipelined calls whose frames are each 100, 256 and 1024 bytes
// (sizedCapture). The target for the binary is ≤ 1 s and ≤ 100 MB
// peak RSS (TestExportJSONFigures in internal/e2e measures the binary).
func BenchmarkExport200k(b *testing.B) {
	b.Run("mixed", func(b *testing.B) { benchExport(b, testbin.PipelinedCapture(b, 100_000)) })
	for _, size := range []int{100, 256, 1024} {
		b.Run(fmt.Sprintf("frame=%dB", size), func(b *testing.B) { benchExport(b, sizedCapture(b, 100_000, size)) })
	}
}

func benchExport(b *testing.B, data []byte) {
	dir := b.TempDir()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := exportJSON(data, io.Discard, dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200_000/(b.Elapsed().Seconds()/float64(b.N)), "frames/s")
}

// sizedCapture returns a capture of n pipelined tools/call requests, then
// their n results, every frame size bytes (a padded text argument and
// result text), as the tap writes it.
func sizedCapture(tb testing.TB, n, size int) []byte {
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
	var seq uint64
	var line []byte
	frame := func(dir capture.Dir, id int, head, tail string) {
		seq++
		line = strconv.AppendInt(append(line[:0], `{"jsonrpc":"2.0","id":`...), int64(id), 10)
		line = append(line, head...)
		line = append(line, bytes.Repeat([]byte{'x'}, max(size-len(line)-len(tail), 0))...)
		line = append(line, tail...)
		must(w.WriteLine(capture.TypeFrame, seq, start.Add(time.Duration(seq)*time.Microsecond), dir, line, false, "", nil))
	}
	for i := 1; i <= n; i++ {
		frame(capture.C2S, i, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`, `"}}}`)
	}
	for i := 1; i <= n; i++ {
		frame(capture.S2C, i, `,"result":{"content":[{"type":"text","text":"`, `"}]}}`)
	}
	must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Second)}))
	must(w.Flush())
	return buf.Bytes()
}

// BenchmarkEncodeFrames measures only this package's share: encoding and
// spooling frames that the store has already correlated.
func BenchmarkEncodeFrames(b *testing.B) {
	data := testbin.PipelinedCapture(b, 10_000)
	var frames []store.Frame
	var recs []capture.Record
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	st := store.New(&store.Options{OnFrame: func(f *store.Frame) {
		frames = append(frames, *f)
		recs = append(recs, *f.Record)
	}})
	st.Ingest(r.Header())
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			break
		}
		st.Ingest(&rec)
	}
	for i := range frames {
		frames[i].Record = &recs[i]
	}
	snap := st.Snapshot()
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		jw := New(io.Discard, &Options{SpoolDir: dir})
		for i := range frames {
			jw.Frame(&frames[i])
		}
		if err := jw.Finish(snap); err != nil {
			b.Fatal(err)
		}
		jw.Close()
	}
	b.ReportMetric(float64(len(frames))/(b.Elapsed().Seconds()/float64(b.N)), "frames/s")
}
