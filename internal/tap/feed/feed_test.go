package feed_test

import (
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
)

var t0 = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

// session plays the capture goroutine: it writes records to a capture
// (nil: none) and publishes each, as a tap does.
type session struct {
	t  *testing.T
	w  *capture.Writer
	f  *feed.Feed
	n  uint64
	to *os.File
}

func newSession(t *testing.T, withFile bool) *session {
	t.Helper()
	s := &session{t: t}
	var out io.Writer = io.Discard
	opts := &feed.Options{}
	if withFile {
		f, err := os.Create(filepath.Join(t.TempDir(), "c.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		s.to, out, opts.Path = f, f, f.Name()
	}
	s.w, s.f = capture.NewWriter(out), feed.New(opts)
	return s
}

func (s *session) header() {
	h := capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: "s1", Transport: "stdio", Time: t0}
	if err := s.w.Write(&h); err != nil {
		s.t.Fatal(err)
	}
	s.flush()
	s.f.Publish(&h)
}

// frames writes and publishes n frames, with a stderr line after every
// tenth, flushing every 100.
func (s *session) frames(n int) {
	for range n {
		s.n++
		l := capture.Line{Type: capture.TypeFrame, Seq: s.n, Time: t0.Add(time.Duration(s.n)), Dir: capture.C2S,
			Bytes: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, s.n)}
		s.line(&l)
		if s.n%10 == 0 {
			s.line(&capture.Line{Type: capture.TypeStderr, Time: t0, Bytes: []byte("log")})
		}
		if s.n%100 == 0 {
			s.flush()
		}
	}
}

func (s *session) line(l *capture.Line) {
	if err := s.w.Append(l); err != nil {
		s.t.Fatal(err)
	}
	var rec capture.Record
	l.Record(&rec)
	s.f.Publish(&rec)
}

func (s *session) flush() {
	if err := s.w.Flush(); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) end() {
	e := capture.Record{Type: capture.TypeEnd, Time: t0}
	if err := s.w.Write(&e); err != nil {
		s.t.Fatal(err)
	}
	s.flush()
	s.f.Publish(&e)
	s.f.Close()
}

// drain reads sub to its end and returns what it read, in one line per
// record ("frame 7", "stderr 0", ...).
func drain(t *testing.T, sub *feed.Sub) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var got []string
	for {
		var rec capture.Record
		err := sub.Next(ctx, &rec)
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatalf("after %d records: %v", len(got), err)
		}
		got = append(got, fmt.Sprintf("%s %d", rec.Type, rec.Seq))
	}
}

// want is what a consumer of a session of n frames must read.
func want(n int) []string {
	out := []string{"session 0"}
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("frame %d", i))
		if i%10 == 0 {
			out = append(out, "stderr 0")
		}
	}
	return append(out, "end 0")
}

// TestBehindCatchesUpFromFile: a consumer that has read nothing while
// its queue overflowed reads what was queued, then the rest from the
// capture file, across the switch, while the session goes on: every
// record once, in order (no duplicate, no hole), and none lost.
func TestBehindCatchesUpFromFile(t *testing.T) {
	t.Parallel()
	s := newSession(t, true)
	sub := s.f.Subscribe(&feed.SubOptions{Records: 64})
	s.header()
	s.frames(500) // past the 64-record queue: behind
	if !sub.Behind() {
		t.Fatal("the consumer is not behind after its queue overflowed")
	}
	got := make(chan []string)
	go func() { got <- drain(t, sub) }()
	s.frames(1500) // written while the consumer follows the file
	s.end()
	if diff := cmp.Diff(want(2000), <-got); diff != "" {
		t.Errorf("records read (-want +got):\n%s", diff)
	}
	if n := sub.Lost(); n != 0 {
		t.Errorf("Lost() = %d with a capture file", n)
	}
}

// TestFastConsumerStaysLive: a consumer that keeps up is handed every
// record live and never opens the file.
func TestFastConsumerStaysLive(t *testing.T) {
	t.Parallel()
	s := newSession(t, true)
	sub := s.f.Subscribe(nil)
	s.header()
	s.frames(300)
	s.end()
	os.Remove(s.to.Name()) // a consumer that went to the file would fail
	if diff := cmp.Diff(want(300), drain(t, sub)); diff != "" {
		t.Errorf("records read (-want +got):\n%s", diff)
	}
	if sub.Behind() {
		t.Error("Behind() with a queue that never filled")
	}
}

// TestNoCaptureCountsLost: without a capture file a consumer that falls
// behind loses what does not fit and says how many; what it reads plus
// what it lost is every record.
func TestNoCaptureCountsLost(t *testing.T) {
	t.Parallel()
	s := newSession(t, false)
	sub := s.f.Subscribe(&feed.SubOptions{Records: 64})
	s.header()
	s.frames(500)
	s.end()
	got := drain(t, sub)
	total := int64(len(want(500)))
	if len(got) != 64 || sub.Lost() != total-64 {
		t.Errorf("read %d, lost %d; want 64 read and %d lost", len(got), sub.Lost(), total-64)
	}
	if diff := cmp.Diff(want(500)[:64], got); diff != "" {
		t.Errorf("records read (-want +got):\n%s", diff)
	}
}

// TestSkipSendsConsumerToFile: a record not handed out live (too large)
// is read from the file.
func TestSkipSendsConsumerToFile(t *testing.T) {
	t.Parallel()
	s := newSession(t, true)
	sub := s.f.Subscribe(nil)
	s.header()
	s.frames(5)
	s.n++
	big := capture.Line{Type: capture.TypeFrame, Seq: s.n, Time: t0, Dir: capture.S2C, Bytes: []byte(`{"jsonrpc":"2.0","id":6,"result":{}}`)}
	if err := s.w.Append(&big); err != nil {
		t.Fatal(err)
	}
	s.f.Skip()
	s.frames(4)
	s.end()
	if diff := cmp.Diff(want(10), drain(t, sub)); diff != "" {
		t.Errorf("records read (-want +got):\n%s", diff)
	}
}
