package stdio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// benchChunk returns about 256 KiB of ~100-byte tools/call frames, cut at
// a line end, and the number of lines in it.
func benchChunk() ([]byte, int) {
	var b []byte
	n := 0
	for id := 1; ; id++ {
		var line []byte
		if id%2 == 1 {
			line = append(line, `{"jsonrpc":"2.0","id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`+"\n"...)
		} else {
			line = append(line, `{"jsonrpc":"2.0","id":`...)
			line = strconv.AppendInt(line, int64(id), 10)
			line = append(line, `,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}`+"\n"...)
		}
		if len(b)+len(line) > 256<<10 {
			return b, n
		}
		b = append(b, line...)
		n++
	}
}

// BenchmarkRecordChunk measures the capture goroutine's work for one relay
// chunk of pipelined frames: splitting it into lines and writing a frame
// record for each into a discarding writer. It reports ns per frame.
func BenchmarkRecordChunk(b *testing.B) {
	chunk, lines := benchChunk()
	recordChunk(b, chunk, lines, streamS2C, nil)
}

// recordChunk runs b's loop over the recorder's work for one chunk of
// lines frames read from stream s, redacted by red (nil: off), and reports
// ns per frame.
func recordChunk(b *testing.B, chunk []byte, lines int, s stream, red redact.Redactor) {
	r := newRecorder(io.Discard, &record.Options{Redact: red})
	at := time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)
	var seq uint64
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		it := item{kind: itemData, stream: s, at: at, base: seq, data: chunk}
		r.data(&it)
		seq += uint64(lines)
		r.out.Flush()
	}
	if r.out.Err() != nil {
		b.Fatal(r.out.Err())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/frame")
}

// BenchmarkRunBurst pipes a burst of frames through Run with cat as the
// server and the capture in a file, as the e2e Pipelined benchmark does,
// but in one process so that -cpuprofile sees the relays and the capture
// goroutine together. It reports frames (both directions) per second.
func BenchmarkRunBurst(b *testing.B) {
	chunk, lines := benchChunk()
	const copies = 40 // 40 × 256 KiB: about 100k requests
	data := bytes.Repeat(chunk, copies)
	for _, captured := range []bool{true, false} {
		b.Run(fmt.Sprintf("capture=%v", captured), func(b *testing.B) {
			capt := "" // no capture
			if captured {
				capt = filepath.Join(b.TempDir(), "c.jsonl")
			}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				runBurst(b, data, capt, nil)
			}
			b.ReportMetric(float64(2*lines*copies*b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}

// runBurst pipes data through Run with cat as the server, capturing into
// the file capt ("": no capture) with redaction red (nil: off), and fails
// b unless every byte comes back.
func runBurst(b *testing.B, data []byte, capt string, red redact.Redactor) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	opts := &Options{Command: []string{"cat"}, Stdin: inR, Stdout: outW, Redact: red}
	if capt != "" {
		f, err := os.Create(capt)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		opts.Capture = f
	}
	go func() {
		_, _ = inW.Write(data)
		_ = inW.Close()
	}()
	got := make(chan int64, 1)
	go func() {
		n, _ := io.Copy(io.Discard, outR)
		got <- n
	}()
	if _, err := Run(context.Background(), opts); err != nil {
		b.Fatal(err)
	}
	_ = outW.Close()
	if n := <-got; n != int64(len(data)) {
		b.Fatalf("relayed %d bytes, want %d", n, len(data))
	}
	_ = inR.Close()
	_ = outR.Close()
}
