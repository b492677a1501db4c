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

// Default queue bounds of a Pipeline.
const (
	DefaultRecordLines = 16 << 10 // capture lines waiting for the store
	DefaultRecordBytes = 16 << 20 // their bytes
	DefaultSinkEvents  = 4096     // events waiting for each sink
)

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

// PipelineOptions configure a Pipeline. Zero bounds mean the defaults.
type PipelineOptions struct {
	// Content keeps values instead of shapes (--events-content).
	Content     bool
	Sinks       []Sink
	RecordLines int
	RecordBytes int64
	SinkEvents  int
}

// Pipeline is the live path: it reads the capture as the tap writes it
// (Write never blocks), feeds a store that derives events, and fans the
// events out to the sinks, each behind its own bounded queue. What does
// not fit a queue is dropped and counted; the traffic and the capture are
// never held up.
type Pipeline struct {
	opts    PipelineOptions
	lines   chan []byte
	queued  atomic.Int64 // bytes in lines
	dropped atomic.Int64 // capture records dropped
	partial []byte       // Write's incomplete line (one writer)
	sinks   []*sinkQueue
	stored  chan struct{} // closed when the store goroutine ends
	derived atomic.Int64
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
	if p.opts.RecordLines <= 0 {
		p.opts.RecordLines = DefaultRecordLines
	}
	if p.opts.RecordBytes <= 0 {
		p.opts.RecordBytes = DefaultRecordBytes
	}
	if p.opts.SinkEvents <= 0 {
		p.opts.SinkEvents = DefaultSinkEvents
	}
	p.lines = make(chan []byte, p.opts.RecordLines)
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

// Write takes capture bytes (the tap's capture writer tees them here). It
// never blocks and never fails: complete lines are queued for the store,
// and a line that does not fit is dropped and counted.
func (p *Pipeline) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.partial = append(p.partial, b...)
			break
		}
		line := b[:i+1]
		if len(p.partial) > 0 {
			line = append(p.partial, line...)
			p.partial = nil
		} else {
			line = bytes.Clone(line)
		}
		p.offer(line)
		b = b[i+1:]
	}
	return n, nil
}

func (p *Pipeline) offer(line []byte) {
	if p.queued.Load()+int64(len(line)) > p.opts.RecordBytes {
		p.dropped.Add(1)
		return
	}
	select {
	case p.lines <- line:
		p.queued.Add(int64(len(line)))
	default:
		p.dropped.Add(1)
	}
}

// lineReader reads the queued lines as one stream.
type lineReader struct {
	p   *Pipeline
	cur []byte
}

func (r *lineReader) Read(b []byte) (int, error) {
	for len(r.cur) == 0 {
		line, ok := <-r.p.lines
		if !ok {
			return 0, io.EOF
		}
		r.p.queued.Add(-int64(len(line)))
		r.cur = line
	}
	n := copy(b, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

// ingest is the store goroutine: it correlates the records and hands each
// event to every sink's queue.
func (p *Pipeline) ingest() {
	defer close(p.stored)
	lr := &lineReader{p: p}
	r, err := capture.NewReader(lr)
	if err != nil {
		_, _ = io.Copy(io.Discard, lr)
		return
	}
	feed := NewFeed(p.opts.Content, func(e *Event) {
		p.derived.Add(1)
		p.fanOut(e)
	})
	feed.Ingest(r.Header())
	var rec capture.Record
	for {
		if err := r.Next(&rec); err != nil || p.ctx.Err() != nil {
			if !errors.Is(err, io.EOF) {
				_, _ = io.Copy(io.Discard, lr)
			}
			return
		}
		feed.Ingest(&rec)
		rec = capture.Record{}
	}
}

func (p *Pipeline) fanOut(e *Event) {
	for _, q := range p.sinks {
		select {
		case q.ch <- *e:
		default:
			q.dropped.Add(1)
		}
	}
}

// Stats are a pipeline's counters.
type Stats struct {
	// RecordsDropped counts capture records that did not fit the store's
	// queue (the events they would have completed are lost).
	RecordsDropped int64
	// Events counts the events derived.
	Events int64
	Sinks  []SinkStats
}

// SinkStats are one sink's counters: Dropped did not fit its queue,
// Failed were given up on (errors, the flush deadline).
type SinkStats struct {
	Name      string
	Delivered int64
	Dropped   int64
	Failed    int64
}

// Lost sums what never reached a sink.
func (s *Stats) Lost() int64 {
	n := s.RecordsDropped
	for _, k := range s.Sinks {
		n += k.Dropped + k.Failed
	}
	return n
}

// String reports the counters in one line.
func (s *Stats) String() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d events derived, %d capture records dropped", s.Events, s.RecordsDropped)
	for _, k := range s.Sinks {
		fmt.Fprintf(&b, "; %s: %d delivered, %d dropped (queue full), %d failed", k.Name, k.Delivered, k.Dropped, k.Failed)
	}
	return b.String()
}

// Stats returns the counters so far.
func (p *Pipeline) Stats() Stats {
	s := Stats{RecordsDropped: p.dropped.Load(), Events: p.derived.Load()}
	for _, q := range p.sinks {
		s.Sinks = append(s.Sinks, SinkStats{Name: q.sink.Name(), Delivered: q.sink.Delivered(), Dropped: q.dropped.Load(), Failed: q.sink.Failed()})
	}
	return s
}

// Close ends the input (no Write may follow), lets the store finish and
// the sinks flush until ctx is done, and returns the final counters and
// the sinks' errors. A partial last line is dropped and counted.
func (p *Pipeline) Close(ctx context.Context) (Stats, error) {
	if len(p.partial) > 0 {
		p.dropped.Add(1)
		p.partial = nil
	}
	close(p.lines)
	stop := context.AfterFunc(ctx, p.cancel)
	defer stop()
	// The store goroutine stops early once the deadline passed (p.ctx).
	<-p.stored
	for _, q := range p.sinks {
		close(q.ch)
	}
	var errs []error
	for _, q := range p.sinks {
		<-q.done
		if q.err != nil {
			errs = append(errs, fmt.Errorf("events sink %s: %w", q.sink.Name(), q.err))
		}
	}
	p.cancel()
	return p.Stats(), errors.Join(errs...)
}
