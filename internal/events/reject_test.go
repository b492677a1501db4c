package events_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// rejectingSink is a receiver that takes every other event and rejects
// the rest for good, as the MCPcat API does the types it does not list.
type rejectingSink struct {
	delivered, rejected atomic.Int64
}

func (*rejectingSink) Name() string       { return "rejecting" }
func (s *rejectingSink) Delivered() int64 { return s.delivered.Load() }
func (*rejectingSink) Failed() int64      { return 0 }
func (s *rejectingSink) Rejected() int64  { return s.rejected.Load() }

func (s *rejectingSink) Run(_ context.Context, in <-chan events.Event) error {
	var i int
	for range in {
		if i++; i%2 == 0 {
			s.rejected.Add(1)
		} else {
			s.delivered.Add(1)
		}
	}
	if s.rejected.Load() > 0 {
		return errors.New("some events rejected")
	}
	return nil
}

// TestPipelineCountsRejected checks that what a Rejecter's receiver
// rejected is counted apart: in the sink's stats and their line, not as
// failed and not as lost (the sink's own error reports it).
func TestPipelineCountsRejected(t *testing.T) {
	t.Parallel()
	fd := feed.New(nil)
	p := events.NewPipeline(&events.PipelineOptions{Source: fd.Subscribe(nil), Sinks: []events.Sink{&rejectingSink{}}})
	const n = 10
	recs := answeredCalls(n)
	for i := range recs {
		fd.PublishWritten(&recs[i])
	}
	fd.Close()
	st, err := p.Close(context.Background())
	if err == nil {
		t.Error("Close did not return the sink's error")
	}
	want := events.SinkStats{Name: "rejecting", Delivered: n / 2, Rejected: n / 2}
	if diff := cmp.Diff([]events.SinkStats{want}, st.Sinks); diff != "" {
		t.Errorf("sink stats (-want +got):\n%s", diff)
	}
	if st.Lost() != 0 {
		t.Errorf("Lost() = %d, want 0: rejected events reached their receiver", st.Lost())
	}
	wantLine := "10 events derived, 0 capture records dropped; rejecting: 5 delivered, 0 dropped (queue full), 0 failed, 5 rejected by the receiver"
	if got := st.String(); got != wantLine {
		t.Errorf("String() = %q, want %q", got, wantLine)
	}
}
