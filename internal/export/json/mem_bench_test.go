package jsonexport

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// unansweredCapture returns a capture of n tools/call requests that are
// never answered, then an end record: every call stays open to the end.
func unansweredCapture(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion, SessionID: "bench"}); err != nil {
		tb.Fatal(err)
	}
	var line []byte
	for id := 1; id <= n; id++ {
		line = append(line[:0], `{"jsonrpc":"2.0","id":`...)
		line = strconv.AppendInt(line, int64(id), 10)
		line = append(line, `,"method":"tools/call","params":{"name":"echo","arguments":{}}}`...)
		if err := w.WriteLine(capture.TypeFrame, uint64(id), start.Add(time.Duration(id)*time.Microsecond), capture.C2S, line, false, "", nil); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Write(&capture.Record{Type: capture.TypeEnd, Time: start.Add(time.Hour)}); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// heapPeak samples the live heap (after a collection) and keeps the
// largest sample, less a base taken at the start.
type heapPeak struct{ base, peak uint64 }

func (h *heapPeak) sample() {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if h.base == 0 {
		h.base = ms.HeapAlloc
	}
	if ms.HeapAlloc > h.base && ms.HeapAlloc-h.base > h.peak {
		h.peak = ms.HeapAlloc - h.base
	}
}

// BenchmarkExportUnanswered1M exports a capture of 1,000,000 requests that
// are never answered (every call open to the end: the worst case for an
// export whose memory follows the open calls) and reports the live heap at
// its largest, sampled after the calls are read and once the snapshot is
// built, in bytes per call. The capture itself (about 190 MB, held in
// memory here) is left out of the figure.
func BenchmarkExportUnanswered1M(b *testing.B) {
	const n = 1_000_000
	data := unansweredCapture(b, n)
	dir := b.TempDir()
	b.SetBytes(int64(len(data)))
	var h heapPeak
	for b.Loop() {
		h = heapPeak{}
		h.sample()
		r, err := capture.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		jw := New(io.Discard, &Options{SpoolDir: dir})
		st := store.New(&store.Options{OnFrame: jw.Frame})
		st.Ingest(r.Header())
		var rec capture.Record
		for {
			if err := r.Next(&rec); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
			st.Ingest(&rec)
		}
		h.sample()
		snap := st.Final()
		h.sample()
		if err := jw.Finish(snap); err != nil {
			b.Fatal(err)
		}
		jw.Close()
		if snap.Calls.Len() != n || snap.Findings.Len() != n {
			b.Fatalf("%d calls, %d findings", snap.Calls.Len(), snap.Findings.Len())
		}
	}
	b.ReportMetric(float64(h.peak)/n, "live-B/call")
	b.ReportMetric(float64(h.peak)/(1<<20), "live-MB")
}
