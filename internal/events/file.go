package events

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync/atomic"
)

// FileSink writes events to a writer as JSONL, one event a line, flushing
// whenever its queue is momentarily empty.
type FileSink struct {
	w         io.Writer
	delivered atomic.Int64
	failed    atomic.Int64
}

// NewFileSink returns a sink writing to w (the caller opens and closes
// it).
func NewFileSink(w io.Writer) *FileSink { return &FileSink{w: w} }

// Name implements Sink.
func (s *FileSink) Name() string { return "file" }

// Wait implements Waiter: a local file takes every event the pipeline
// derives, so that it equals export -T events of the capture.
func (s *FileSink) Wait() bool { return true }

// Delivered implements Sink.
func (s *FileSink) Delivered() int64 { return s.delivered.Load() }

// Failed implements Sink.
func (s *FileSink) Failed() int64 { return s.failed.Load() }

// Run implements Sink. After a write error it counts the rest as failed.
func (s *FileSink) Run(_ context.Context, in <-chan Event) error {
	bw := bufio.NewWriterSize(s.w, 64<<10)
	var werr error
	pending := int64(0)
	for {
		e, ok := <-in
		if !ok {
			break
		}
		pending += s.write(bw, &e, &werr)
		if len(in) == 0 && werr == nil {
			if err := bw.Flush(); err != nil {
				werr = err
				s.failed.Add(pending)
			} else {
				s.delivered.Add(pending)
			}
			pending = 0
		}
	}
	if werr == nil {
		if err := bw.Flush(); err != nil {
			werr = err
			s.failed.Add(pending)
		} else {
			s.delivered.Add(pending)
		}
	}
	if werr != nil {
		return fmt.Errorf("writing events: %w", werr)
	}
	return nil
}

// write buffers one event and returns 1, or counts it failed and returns 0.
func (s *FileSink) write(bw *bufio.Writer, e *Event, werr *error) int64 {
	if *werr != nil {
		s.failed.Add(1)
		return 0
	}
	b, err := Marshal(e)
	if err == nil {
		b = append(b, '\n')
		_, err = bw.Write(b)
	}
	if err != nil {
		*werr = err
		s.failed.Add(1)
		return 0
	}
	return 1
}
