package capture

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkFollowLatency appends one flushed record at a time to a capture
// file while a Follower (default poll) reads it, and reports how long each
// record took from the end of its write to the follower: mean-ms and
// max-ms (issue target: every record within 100 ms).
func BenchmarkFollowLatency(b *testing.B) {
	path := filepath.Join(b.TempDir(), "live.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := NewWriter(f)
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(w.Write(&Record{Type: TypeSession, Time: t0, Format: FormatVersion, SessionID: "s", Transport: "stdio"}))
	must(w.Flush())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	fl, err := Follow(ctx, path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer fl.Close()
	written := make(chan time.Time, 1)
	var total, worst time.Duration
	b.ResetTimer()
	go func() {
		for i := range b.N {
			time.Sleep(time.Millisecond) // a live writer's pace, not an ordering
			must(w.Write(&Record{Type: TypeStderr, Seq: uint64(i + 1), Time: t0, Text: "line"}))
			must(w.Flush())
			written <- time.Now()
		}
	}()
	var rec Record
	for range b.N {
		if err := fl.Next(&rec); err != nil {
			b.Fatal(err)
		}
		d := time.Since(<-written)
		total += d
		worst = max(worst, d)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "mean-ms")
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
}
