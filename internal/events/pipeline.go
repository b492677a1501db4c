package events

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// DefaultSinkEvents is how many events wait for each sink by default.
const DefaultSinkEvents = 4096

// Source is the records a Pipeline reads, from the session record on
// (feed.Sub, a tap's live feed).
type Source interface {
	// Next stores the next record in rec; io.EOF after the last.
	Next(ctx context.Context, rec *capture.Record) error
	// Lost counts the records the source could not hand out.
	Lost() int64
}

// publishedCounter is a Source that says how many records it published
// (feed.Sub), so that a pipeline stopped by the flush deadline can count
// what it never read.
type publishedCounter interface {
	Published() int64
}

// Sink consumes events on its own goroutine.
type Sink interface {
	// Name names the sink in reports ("file", "http", "otlp").
	Name() string
	// Run consumes in until it is closed, then flushes and returns; it
	// gives up on what it could not deliver once ctx is done (the flush
	// deadline).
	Run(ctx context.Context, in <-chan Event) error
	// Delivered and Failed count events delivered and given up on.
	Delivered() int64
	Failed() int64
}

// Rejecter is a Sink whose receiver can reject events for good (an HTTP
// 4xx a retry would not change, such as the MCPcat API's 400 for an event
// type it does not list). Rejected counts them, apart from Failed; the
// sink's Run error says which were rejected and why.
type Rejecter interface {
	Rejected() int64
}

// PipelineOptions configure a Pipeline. Zero bounds mean the defaults.
type PipelineOptions struct {
	// Content keeps values instead of shapes (--events-content).
	Content bool
	// Source is the records; required. The pipeline reads it to its end.
	Source     Source
	Sinks      []Sink
	SinkEvents int
	// OnRecord, when set, sees each record read from the Source (the
	// session record included) on the store goroutine, before the store
	// does; it must not keep the record.
	OnRecord func(*capture.Record)
}

// Pipeline is the live path: it reads typed records from its Source (a
// tap's live feed, which never holds up the traffic or the capture),
// feeds a store that derives events, and fans the events out to the
// sinks, each behind its own bounded queue. An event that does not fit a
// sink's queue is dropped and counted.
type Pipeline struct {
	opts    PipelineOptions
	srcErr  error // the Source's error other than io.EOF, once stored is closed
	sinks   []*sinkQueue
	stored  chan struct{} // closed when the store goroutine ends
	derived atomic.Int64
	read    atomic.Int64 // records read from the Source
	unread  int64        // what the Source still held at the flush deadline
	ctx     context.Context
	cancel  context.CancelFunc
}

type sinkQueue struct {
	sink    Sink
	ch      chan Event
	dropped atomic.Int64
	done    chan struct{}
	err     error
}

// NewPipeline starts a pipeline's goroutines.
func NewPipeline(opts *PipelineOptions) *Pipeline {
	p := &Pipeline{opts: *opts, stored: make(chan struct{})}
	if p.opts.SinkEvents <= 0 {
		p.opts.SinkEvents = DefaultSinkEvents
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for _, s := range p.opts.Sinks {
		q := &sinkQueue{sink: s, ch: make(chan Event, p.opts.SinkEvents), done: make(chan struct{})}
		p.sinks = append(p.sinks, q)
		go func() {
			defer close(q.done)
			q.err = s.Run(p.ctx, q.ch)
		}()
	}
	go p.ingest()
	return p
}

// ingest is the store goroutine: it correlates the records and hands each
// event to every sink's queue.
func (p *Pipeline) ingest() {
	defer close(p.stored)
	var h capture.Record
	if err := p.opts.Source.Next(p.ctx, &h); err != nil || h.Type != capture.TypeSession {
		p.sourceEnded(err)
		return
	}
	feed := NewFeed(p.opts.Content, func(e *Event) {
		p.derived.Add(1)
		p.fanOut(e)
	})
	p.onRecord(&h)
	feed.Ingest(&h)
	p.read.Add(1)
	for {
		var rec capture.Record
		if err := p.opts.Source.Next(p.ctx, &rec); err != nil {
			p.sourceEnded(err)
			return
		}
		if rec.Type == capture.TypeSession {
			return // a capture holds one session per tap run
		}
		p.onRecord(&rec)
		feed.Ingest(&rec)
		p.read.Add(1)
	}
}

func (p *Pipeline) onRecord(r *capture.Record) {
	if p.opts.OnRecord != nil {
		p.opts.OnRecord(r)
	}
}

// sourceEnded keeps the error that ended the Source, unless it is the
// clean end or the flush deadline.
func (p *Pipeline) sourceEnded(err error) {
	if err != nil && !errors.Is(err, io.EOF) && p.ctx.Err() == nil {
		p.srcErr = fmt.Errorf("reading the live records: %w", err)
	}
}

// Waiter is a Sink that would rather be waited for than lose events: the
// local file sink. The pipeline is a live consumer that catches up from the
// capture when it falls behind, so waiting for such a sink never slows the
// traffic; only the flush deadline ends the wait.
type Waiter interface {
	Sink
	// Wait reports whether the pipeline should wait for room in the
	// sink's queue instead of dropping the event.
	Wait() bool
}

// fanOut hands e to every sink's queue: a sink that asks to be waited for
// gets it unless the flush deadline passed; any other drops what does not
// fit, and counts it.
func (p *Pipeline) fanOut(e *Event) {
	for _, q := range p.sinks {
		if w, ok := q.sink.(Waiter); ok && w.Wait() {
			select {
			case q.ch <- *e:
			case <-p.ctx.Done():
				q.dropped.Add(1)
			}
			continue
		}
		select {
		case q.ch <- *e:
		default:
			q.dropped.Add(1)
		}
	}
}

// Stats are a pipeline's counters.
type Stats struct {
	// RecordsDropped counts records the Source could not hand out (only
	// without a capture file; the events they would have completed are
	// lost).
	RecordsDropped int64
	// RecordsUnread counts records the Source still held when the flush
	// deadline stopped the pipeline (the events they would have completed
	// are lost); zero unless the Source says how many it published.
	RecordsUnread int64
	// Events counts the events derived.
	Events int64
	Sinks  []SinkStats
}

// SinkStats are one sink's counters: Dropped did not fit its queue,
// Failed were given up on (errors, the flush deadline), Rejected were
// refused for good by the sink's receiver (zero unless it is a Rejecter).
type SinkStats struct {
	Name      string
	Delivered int64
	Dropped   int64
	Failed    int64
	Rejected  int64
}

// Lost sums what never reached a sink or was given up on. Events a
// receiver rejected (SinkStats.Rejected) reached it and are not counted:
// the sink's Run error reports them.
func (s *Stats) Lost() int64 {
	n := s.RecordsDropped + s.RecordsUnread
	for _, k := range s.Sinks {
		n += k.Dropped + k.Failed
	}
	return n
}

// String reports the counters in one line.
func (s *Stats) String() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d events derived, %d capture records dropped", s.Events, s.RecordsDropped)
	if s.RecordsUnread > 0 {
		fmt.Fprintf(&b, ", %d capture records not read by the flush deadline", s.RecordsUnread)
	}
	for _, k := range s.Sinks {
		fmt.Fprintf(&b, "; %s: %d delivered, %d dropped (queue full), %d failed", k.Name, k.Delivered, k.Dropped, k.Failed)
		if k.Rejected > 0 {
			fmt.Fprintf(&b, ", %d rejected by the receiver", k.Rejected)
		}
	}
	return b.String()
}

// Stats returns the counters so far.
func (p *Pipeline) Stats() Stats {
	s := Stats{RecordsDropped: p.opts.Source.Lost(), RecordsUnread: p.unread, Events: p.derived.Load()}
	for _, q := range p.sinks {
		k := SinkStats{Name: q.sink.Name(), Delivered: q.sink.Delivered(), Dropped: q.dropped.Load(), Failed: q.sink.Failed()}
		if r, ok := q.sink.(Rejecter); ok {
			k.Rejected = r.Rejected()
		}
		s.Sinks = append(s.Sinks, k)
	}
	return s
}

// Close waits for the Source's last record (the tap ended its feed), lets
// the store finish and the sinks flush until ctx is done, and returns the
// final counters and the errors of the Source and the sinks.
func (p *Pipeline) Close(ctx context.Context) (Stats, error) {
	stop := context.AfterFunc(ctx, p.cancel)
	defer stop()
	// The store goroutine stops early once the deadline passed (p.ctx).
	<-p.stored
	if c, ok := p.opts.Source.(publishedCounter); ok && p.ctx.Err() != nil {
		p.unread = max(0, c.Published()-p.opts.Source.Lost()-p.read.Load())
	}
	for _, q := range p.sinks {
		close(q.ch)
	}
	var errs []error
	if p.srcErr != nil {
		errs = append(errs, p.srcErr)
	}
	for _, q := range p.sinks {
		<-q.done
		if q.err != nil {
			errs = append(errs, fmt.Errorf("events sink %s: %w", q.sink.Name(), q.err))
		}
	}
	p.cancel()
	return p.Stats(), errors.Join(errs...)
}
