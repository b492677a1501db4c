package store

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// capture200k is a capture of n pipelined modern tools/call requests
// followed by their n results, written by the real Writer: 2n frames.
func capture200k(b *testing.B, n int) []byte {
	b.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion, SessionID: "bench"}); err != nil {
		b.Fatal(err)
	}
	var line []byte
	for i := range 2 * n {
		id := strconv.Itoa(i % n)
		dir := capture.C2S
		if i < n {
			line = append(line[:0], `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello `+id+`"},`+meta+`}}`...)
		} else {
			dir = capture.S2C
			line = append(line[:0], `{"jsonrpc":"2.0","id":`+id+`,"result":{"resultType":"complete","content":[{"type":"text","text":"hello `+id+`"}]}}`...)
		}
		if err := w.WriteLine(capture.TypeFrame, uint64(i+1), t0.Add(time.Duration(i)*time.Microsecond), dir, line, false, "", nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkLoad200k measures store.Load (capture reader included) on a
// 200,000-frame capture.
func BenchmarkLoad200k(b *testing.B) {
	data := capture200k(b, 100_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := capture.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		snap, err := Load(r, nil)
		if err != nil {
			b.Fatal(err)
		}
		if snap.Calls.Len() != 100_000 || snap.Findings.Len() != 0 {
			b.Fatalf("%d calls, %d findings", snap.Calls.Len(), snap.Findings.Len())
		}
	}
}

// BenchmarkIngest200k measures the store alone: the same records, already
// read, ingested and snapshotted.
func BenchmarkIngest200k(b *testing.B) {
	data := capture200k(b, 100_000)
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	var recs []capture.Record
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			if !errors.Is(err, io.EOF) {
				b.Fatal(err)
			}
			break
		}
		recs = append(recs, rec)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := New(nil)
		s.Ingest(r.Header())
		for i := range recs {
			s.Ingest(&recs[i])
		}
		if snap := s.freeze(false); snap.Calls.Len() != 100_000 {
			b.Fatalf("%d calls", snap.Calls.Len())
		}
	}
}
