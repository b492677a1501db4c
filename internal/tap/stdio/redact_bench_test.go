package stdio

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// BenchmarkRecordChunkRedact is BenchmarkRecordChunk with and without
// --redact-secrets, on frames no key rule selects (the common case: the
// redactor's pre-scan) and on frames of which one in eight carries an
// api_key argument (tokenized and rewritten). Compare ns/frame of each
// secrets run with its off run for the throughput ratio.
func BenchmarkRecordChunkRedact(b *testing.B) {
	plain, lines := benchChunk()
	var secret []byte
	for i, l := range bytes.SplitAfter(plain, []byte("\n")) {
		if i%8 == 0 {
			l = bytes.Replace(l, []byte(`"arguments":{"text":"hello"}`), []byte(`"arguments":{"api_key":"sk-1","text":"hi"}`), 1)
		}
		secret = append(secret, l...)
	}
	red, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		chunk []byte
		red   redact.Redactor
	}{
		{"plain/off", plain, nil},
		{"plain/secrets", plain, red},
		{"with-keys/off", secret, nil},
		{"with-keys/secrets", secret, red},
	} {
		b.Run(bc.name, func(b *testing.B) {
			recordChunk(b, bc.chunk, lines, streamC2S, bc.red)
		})
	}
}

// BenchmarkRedactRatio records the same chunk with redaction off and with
// --redact-secrets in alternation, so that both see the same machine load,
// and reports the throughput ratio (secrets/off; 1 means no cost).
func BenchmarkRedactRatio(b *testing.B) {
	plain, lines := benchChunk()
	red, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		b.Fatal(err)
	}
	off, on := newRecorder(io.Discard, nil), newRecorder(io.Discard, &record.Options{Redact: red})
	at := time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)
	var seq uint64
	var tOff, tOn time.Duration
	for b.Loop() {
		for i, r := range []*recorder{off, on} {
			start := time.Now()
			it := item{kind: itemData, stream: streamC2S, at: at, base: seq, data: plain}
			r.data(&it)
			r.out.Flush()
			if d := time.Since(start); i == 0 {
				tOff += d
			} else {
				tOn += d
			}
		}
		seq += uint64(lines)
	}
	b.ReportMetric(float64(tOff)/float64(tOn), "ratio")
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N*lines), "off-ns/frame")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N*lines), "secrets-ns/frame")
}

// BenchmarkRunBurstRedact is BenchmarkRunBurst (cat as the server, the
// capture in a file) with redaction off and with --redact-secrets: the
// capture throughput of the whole tap. It reports frames per second.
func BenchmarkRunBurstRedact(b *testing.B) {
	chunk, lines := benchChunk()
	const copies = 40
	data := bytes.Repeat(chunk, copies)
	red, err := redact.New(&redact.Options{Secrets: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		red  redact.Redactor
	}{{"off", nil}, {"secrets", red}, {"off", nil}, {"secrets", red}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				runBurst(b, data, filepath.Join(dir, "c.jsonl"), bc.red)
			}
			b.ReportMetric(float64(2*lines*copies*b.N)/b.Elapsed().Seconds(), "frames/s")
		})
	}
}
