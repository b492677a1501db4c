package record_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/capq"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// TestDrainRedacts runs the capture loop both taps share over a queue a
// producer fills from another goroutine: every record reaches the file and
// the feed in order, redacted by Options.Redact, the queue's room is
// given back (a 4-item queue carries 200 records), and Drain returns once
// the queue is closed and empty.
func TestDrainRedacts(t *testing.T) {
	t.Parallel()
	red, err := redact.New(&redact.Options{Keys: []string{"api_key"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fd := feed.New(nil)
	sub := fd.Subscribe(nil)
	r := record.New(&buf, &record.Options{Feed: fd, Redact: red})
	r.Record(session())
	q := capq.New[*capture.Record](&capq.Options{MaxItems: 4, PollInterval: time.Millisecond, PollRounds: -1})
	const n = 200
	go func() {
		for i := range n {
			raw := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"api_key":"sk-secret"}}`
			rec := &capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: t0, Dir: capture.C2S, Raw: raw, Size: len(raw)}
			q.Lock()
			q.WaitRoomLocked(1)
			wake := q.PushLocked(rec, 1, time.Now())
			q.Unlock()
			if wake {
				q.Signal()
			}
		}
		q.Lock()
		q.CloseLocked()
		q.Unlock()
		q.Signal()
	}()
	record.Drain(q, r, func(rec **capture.Record) (int, bool) {
		r.Record(*rec)
		return 1, false
	})
	if err := r.Finish(t0); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if strings.Contains(buf.String(), "sk-secret") {
		t.Error("the capture holds the secret")
	}
	var seqs []uint64
	for {
		var rec capture.Record
		err := sub.Next(context.Background(), &rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Type == capture.TypeFrame {
			if !rec.Redacted {
				t.Errorf("frame %d fed unredacted", rec.Seq)
			}
			seqs = append(seqs, rec.Seq)
		}
	}
	want := make([]uint64, n)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	if diff := cmp.Diff(want, seqs); diff != "" {
		t.Errorf("fed seqs (-want +got):\n%s", diff)
	}
}

// TestDrainStops: Drain returns at the item write calls the last, leaving
// the rest.
func TestDrainStops(t *testing.T) {
	t.Parallel()
	r := record.New(io.Discard, nil)
	q := capq.New[int](&capq.Options{PollRounds: -1})
	q.Lock()
	for i := range 5 {
		q.PushLocked(i, 0, time.Time{})
	}
	q.Unlock()
	var got []int
	record.Drain(q, r, func(v *int) (int, bool) {
		got = append(got, *v)
		return 0, *v == 2
	})
	if diff := cmp.Diff([]int{0, 1, 2}, got); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
}
