package events_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// droppingSink is a file sink that does not ask to be waited for, as a
// network sink does not.
type droppingSink struct{ *events.FileSink }

func (droppingSink) Wait() bool { return false }

// TestPipelineDropsWhenSinkStalls writes a capture of n answered calls
// through a Pipeline whose only sink, one that is not waited for, is stuck
// writing to a pipe nobody reads: publishing never blocks, every event is
// derived, the sink's queue takes what fits and the rest is counted as
// dropped.
func TestPipelineDropsWhenSinkStalls(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pr.Close()
	fd := feed.New(nil)
	p := events.NewPipeline(&events.PipelineOptions{Source: fd.Subscribe(nil), Sinks: []events.Sink{droppingSink{events.NewFileSink(pw)}}, SinkEvents: 8})
	const n = 200
	recs := answeredCalls(n)
	start := time.Now()
	for i := range recs {
		fd.PublishWritten(&recs[i])
	}
	fd.Close()
	// A liveness bound, not a latency one: a publisher held by the stalled
	// sink would block for good (nothing unblocks the sink before Close).
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("writing the capture took %v with the sink stalled", d)
	}
	// Derivation runs on its own goroutine and is not stalled by the sink;
	// on a loaded machine it may still be busy, so wait for it before the
	// short flush deadline that tests the sink, not the machine.
	for wait := time.Now().Add(10 * time.Second); p.Stats().Events < n && time.Now().Before(wait); {
		time.Sleep(time.Millisecond) // polling a count, not ordering events
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	go func() { <-ctx.Done(); pr.Close() }() // unblock the stuck write at the deadline
	st, _ := p.Close(ctx)
	if st.Events != n {
		t.Errorf("%d events derived, want %d", st.Events, n)
	}
	k := st.Sinks[0]
	if k.Dropped < n/2 || k.Dropped+k.Delivered+k.Failed != n {
		t.Errorf("sink: %+v; want most dropped and every event accounted for", k)
	}
	if st.Lost() < k.Dropped {
		t.Errorf("Lost() = %d < dropped %d", st.Lost(), k.Dropped)
	}
}

// answeredCalls returns a session record and n answered tools/list calls.
func answeredCalls(n int) []capture.Record {
	at := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	recs := []capture.Record{{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "stdio", Time: at}}
	for i := range n {
		recs = append(recs,
			capture.Record{Type: capture.TypeFrame, Seq: uint64(2*i + 1), Dir: capture.C2S, Time: at,
				Msg: jsontext.Value(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, i))},
			capture.Record{Type: capture.TypeFrame, Seq: uint64(2*i + 2), Dir: capture.S2C, Time: at.Add(time.Millisecond),
				Msg: jsontext.Value(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"tools":[]}}`, i))})
	}
	return recs
}

// slowWriter takes a millisecond for every write.
type slowWriter struct{ bytes.Buffer }

func (w *slowWriter) Write(b []byte) (int, error) {
	time.Sleep(time.Millisecond) // the slow sink's work, not an ordering
	return w.Buffer.Write(b)
}

// TestPipelineWaitsForFileSink feeds n calls to a Pipeline whose file sink
// is slow and whose queue holds 4 events: the file sink is waited for, so
// it gets every event, in order, and nothing is dropped.
func TestPipelineWaitsForFileSink(t *testing.T) {
	t.Parallel()
	w := &slowWriter{}
	fd := feed.New(nil)
	p := events.NewPipeline(&events.PipelineOptions{Source: fd.Subscribe(nil), Sinks: []events.Sink{events.NewFileSink(w)}, SinkEvents: 4})
	const n = 300
	recs := answeredCalls(n)
	for i := range recs {
		fd.PublishWritten(&recs[i])
	}
	fd.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := p.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if k := st.Sinks[0]; st.Events != n || k.Delivered != n || k.Dropped != 0 || k.Failed != 0 || st.Lost() != 0 {
		t.Errorf("stats %+v; want %d events derived and delivered, none lost", st, n)
	}
	if lines := bytes.Count(w.Bytes(), []byte("\n")); lines != n {
		t.Errorf("the file holds %d events, want %d", lines, n)
	}
}

// lossySource hands out recs and then says it lost lost records.
type lossySource struct {
	recs []capture.Record
	lost int64
}

func (s *lossySource) Next(_ context.Context, rec *capture.Record) error {
	if len(s.recs) == 0 {
		return io.EOF
	}
	*rec, s.recs = s.recs[0], s.recs[1:]
	return nil
}

func (s *lossySource) Lost() int64 { return s.lost }

// TestPipelineReportsLostRecords: records the source lost (a consumer
// behind without a capture file) are counted as lost in the stats and
// their one-line report.
func TestPipelineReportsLostRecords(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	src := &lossySource{recs: []capture.Record{{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "stdio", Time: at}}, lost: 7}
	p := events.NewPipeline(&events.PipelineOptions{Source: src})
	st, err := p.Close(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.RecordsDropped != 7 || st.Lost() != 7 || !strings.Contains(st.String(), "7 capture records dropped") {
		t.Errorf("stats %+v (%s); want 7 records dropped", st, st.String())
	}
}

// TestPipelineCountsUnreadAtDeadline stalls a waited-for file sink, so the
// pipeline stops deriving at the flush deadline with records still in its
// Source: those are counted, not silently lost.
func TestPipelineCountsUnreadAtDeadline(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pr.Close()
	fd := feed.New(nil)
	p := events.NewPipeline(&events.PipelineOptions{Source: fd.Subscribe(nil), Sinks: []events.Sink{events.NewFileSink(pw)}, SinkEvents: 2})
	recs := answeredCalls(200)
	for i := range recs {
		fd.PublishWritten(&recs[i])
	}
	fd.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	go func() { <-ctx.Done(); pr.Close() }() // unblock the stuck write at the deadline
	st, _ := p.Close(ctx)
	if st.RecordsUnread == 0 || st.Lost() < st.RecordsUnread {
		t.Errorf("stats %+v: want the records left unread counted and in Lost()", st)
	}
	if !strings.Contains(st.String(), "capture records not read by the flush deadline") {
		t.Errorf("stats line %q does not report the unread records", st.String())
	}
}
