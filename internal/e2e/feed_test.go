package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
)

// slowPerRecord is how long the deliberately slow live consumer takes
// over each record.
const slowPerRecord = time.Millisecond

// feedSession is the stdio tap run in-process in front of the fast
// server, with a capture file and, when slow, a live consumer that takes
// slowPerRecord over each record.
type feedSession struct {
	name    string
	capture string
	in      *io.PipeWriter
	out     *bufio.Reader
	next    int
	ran     chan error
	got     chan []string // the consumer's records, as recordsOf lists them
	sub     *feed.Sub
	cancel  context.CancelFunc
}

// startFeedSession starts a session appending to the capture at path
// (empty: a new file).
func startFeedSession(tb testing.TB, name, path string, slow bool, subOpts *feed.SubOptions) *feedSession {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "c.jsonl")
	}
	s := &feedSession{name: name, capture: path, next: 1, ran: make(chan error, 1), got: make(chan []string, 1)}
	file, err := capture.CreateFile(s.capture, capture.Append)
	if err != nil {
		tb.Fatal(err)
	}
	lines, offset, err := file.Start()
	if err != nil {
		tb.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s.in, s.out = inW, bufio.NewReaderSize(outR, 1<<20)
	opts := &stdio.Options{Command: []string{bins.fastserver}, Stdin: inR, Stdout: outW, Capture: file,
		SpoolDir: filepath.Dir(s.capture), Header: capture.Record{SessionID: name}}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	if slow {
		fd := feed.New(&feed.Options{Path: s.capture, Lines: lines, Offset: offset})
		s.sub = fd.Subscribe(subOpts)
		opts.Feed = fd
		go func() { s.got <- consume(ctx, s.sub) }()
	}
	go func() {
		_, err := stdio.Run(context.Background(), opts)
		outW.Close()
		s.ran <- errors.Join(err, file.Close())
	}()
	tb.Cleanup(func() { cancel(); s.in.Close() })
	return s
}

// consume reads sub to its end, taking slowPerRecord over each record.
func consume(ctx context.Context, sub *feed.Sub) []string {
	var got []string
	for {
		var rec capture.Record
		err := sub.Next(ctx, &rec)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				got = append(got, "error "+err.Error())
			}
			return got
		}
		got = append(got, fmt.Sprintf("%s %d line %d at %d", rec.Type, rec.Seq, rec.Line, rec.Offset))
		time.Sleep(slowPerRecord) // the consumer's work, not ordering
	}
}

// burst pipelines n requests and returns the time until the last answer
// was read and its frame is in the capture file.
func (s *feedSession) burst(tb testing.TB, n int) time.Duration {
	tb.Helper()
	data := make([]byte, 0, n*100)
	for range n {
		data = appendRequest(data, s.next)
		s.next++
	}
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		_, err := s.in.Write(data)
		errc <- err
	}()
	for range n {
		if _, err := s.out.ReadSlice('\n'); err != nil {
			tb.Fatalf("%s: reading: %v", s.name, err)
		}
	}
	waitOnDisk(tb, s.capture, uint64(2*(s.next-1)))
	d := time.Since(start)
	if err := <-errc; err != nil {
		tb.Fatalf("%s: writing: %v", s.name, err)
	}
	return d
}

// finish ends the session and returns what the consumer read.
func (s *feedSession) finish(tb testing.TB) []string {
	tb.Helper()
	s.in.Close()
	if _, err := io.Copy(io.Discard, s.out); err != nil {
		tb.Fatal(err)
	}
	if err := <-s.ran; err != nil {
		tb.Fatalf("%s: %v", s.name, err)
	}
	if s.sub == nil {
		return nil
	}
	return <-s.got
}

// recordsOfSession is recordsOf for the session named id in a capture
// that may hold several.
func recordsOfSession(tb testing.TB, path, id string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ss, err := capture.Index(f)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range ss {
		if ss[i].Header.SessionID != id {
			continue
		}
		r, err := capture.OpenSession(f, &ss[i])
		if err != nil {
			tb.Fatal(err)
		}
		h := r.Header()
		out := []string{fmt.Sprintf("%s %d line %d at %d", h.Type, h.Seq, h.Line, h.Offset)}
		for {
			var rec capture.Record
			err := r.Next(&rec)
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %d line %d at %d", rec.Type, rec.Seq, rec.Line, rec.Offset))
		}
	}
	tb.Fatalf("no session %s in %s", id, path)
	return nil
}

// recordsOf lists the records of a capture file, "type seq line offset"
// each.
func recordsOf(tb testing.TB, path string) []string {
	tb.Helper()
	h, recs, dmg, err := capture.ReadFile(path)
	if err != nil || dmg.Corrupt != 0 || dmg.Torn {
		tb.Fatalf("reading %s: %v, damage %+v", path, err, dmg)
	}
	out := []string{fmt.Sprintf("%s %d line %d at %d", h.Type, h.Seq, h.Line, h.Offset)}
	for _, r := range recs {
		out = append(out, fmt.Sprintf("%s %d line %d at %d", r.Type, r.Seq, r.Line, r.Offset))
	}
	return out
}

// TestSlowConsumerGetsEveryRecord: a live consumer that takes 1 ms over
// each record, with a queue far smaller than the burst, falls behind,
// catches up from the capture file, and ends with every record of the
// capture, in order, none twice, each with the line and offset a Reader
// finds it at.
func TestSlowConsumerGetsEveryRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds")
	}
	t.Parallel()
	for _, appended := range []bool{false, true} {
		t.Run(fmt.Sprintf("appended=%v", appended), func(t *testing.T) {
			t.Parallel()
			path := ""
			if appended {
				// A session before ours, with a torn last line.
				first := startFeedSession(t, "first", "", false, nil)
				first.burst(t, 300)
				first.finish(t)
				path = first.capture
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(`{"type":"frame","se`); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			s := startFeedSession(t, "slow", path, true, &feed.SubOptions{Records: 256})
			s.burst(t, 1000)
			s.burst(t, 500)
			got := s.finish(t)
			if !s.sub.Behind() {
				t.Error("the consumer never fell behind; the test does not test catching up")
			}
			if diff := cmp.Diff(recordsOfSession(t, s.capture, "slow"), got); diff != "" {
				t.Errorf("the consumer's records (-capture +consumer):\n%s", diff)
			}
		})
	}
}

// BenchmarkSlowConsumer measures pipelined throughput through the stdio
// tap with capture on, without a live consumer and with one that takes
// 1 ms over each record (it falls behind in the warm-up and catches up
// from the file). Each op is one burst of 10,000 requests through each, in turn;
// a burst is done when its last frame is in the capture file. The
// consumer's records are checked against the capture at the end.
func BenchmarkSlowConsumer(b *testing.B) {
	const n = 10_000
	none := startFeedSession(b, "none", "", false, nil)
	slow := startFeedSession(b, "slow", "", true, nil)
	sessions := []*feedSession{none, slow}
	total := make([]time.Duration, len(sessions))
	// Warm up with a burst whose 20,000 records overflow the consumer's
	// queue (16,384), so what is timed is the steady state of a consumer
	// that fell behind and reads the file.
	for _, s := range sessions {
		s.burst(b, n)
	}
	if !slow.sub.Behind() {
		b.Fatal("the slow consumer did not fall behind in the warm-up")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range sessions {
			k := (i + j) % len(sessions)
			total[k] += sessions[k].burst(b, n)
		}
	}
	b.StopTimer()
	for k, s := range sessions {
		b.ReportMetric(float64(n*b.N)/total[k].Seconds(), s.name+"-req/s")
	}
	b.ReportMetric(total[0].Seconds()/total[1].Seconds(), "slow-vs-none")
	none.finish(b)
	slow.in.Close()
	if _, err := io.Copy(io.Discard, slow.out); err != nil {
		b.Fatal(err)
	}
	if err := <-slow.ran; err != nil {
		b.Fatal(err)
	}
	// The consumer needs ~1 ms a record to finish: check a prefix now and
	// the rest only when it is short enough to wait for.
	slow.cancel()
	got := <-slow.got
	want := recordsOf(b, slow.capture)
	if len(got) > 0 && got[len(got)-1] == "error "+context.Canceled.Error() {
		got = got[:len(got)-1]
	}
	if len(got) > len(want) {
		b.Fatalf("consumer read %d records, the capture holds %d", len(got), len(want))
	}
	if diff := cmp.Diff(want[:len(got)], got); diff != "" {
		b.Errorf("the consumer's records (-capture +consumer):\n%s", diff)
	}
}

// waitOnDisk polls the capture's tail until the frame seq is in it.
func waitOnDisk(tb testing.TB, path string, seq uint64) {
	tb.Helper()
	needle := fmt.Appendf(nil, `{"type":"frame","seq":%d,`, seq)
	deadline := time.Now().Add(time.Minute)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		fi, err := f.Stat()
		if err != nil {
			tb.Fatal(err)
		}
		off := max(fi.Size()-int64(len(buf)), 0)
		n, err := f.ReadAt(buf, off)
		if err != nil && !errors.Is(err, io.EOF) {
			tb.Fatal(err)
		}
		if bytes.Contains(buf[:n], needle) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("frame %d not in %s after a minute", seq, path)
		}
		time.Sleep(100 * time.Microsecond) // polling an external writer
	}
}
