package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/otlp"
)

// eventsSink writes exported events as they come: JSONL, or an OTLP/JSON
// file (a traces line and a logs line) built by the same code as the live
// --otlp-endpoint sink.
type eventsSink struct {
	jsonl *bufio.Writer
	otlp  *otlp.FileWriter
	err   error
}

// newEventsSink returns the sink of format (formatEvents or formatOTLP)
// writing to w; seed is the session id, spoolDir where OTLP spans spill.
func newEventsSink(w io.Writer, format, seed, spoolDir string) (*eventsSink, error) {
	if format == formatOTLP {
		fw, err := otlp.NewFileWriter(context.Background(), w, seed, spoolDir)
		if err != nil {
			return nil, err
		}
		return &eventsSink{otlp: fw}, nil
	}
	return &eventsSink{jsonl: bufio.NewWriterSize(w, 64<<10)}, nil
}

// add writes or queues one event; errors are sticky and reported by close.
func (s *eventsSink) add(e *events.Event) {
	if s.otlp != nil {
		s.otlp.Add(e)
		return
	}
	if s.err != nil {
		return
	}
	b, err := events.Marshal(e)
	if err == nil {
		_, err = s.jsonl.Write(append(b, '\n'))
	}
	s.err = err
}

// close finishes the output.
func (s *eventsSink) close() error {
	if s.otlp != nil {
		return s.otlp.Close()
	}
	if s.err != nil {
		return fmt.Errorf("writing events: %w", s.err)
	}
	if err := s.jsonl.Flush(); err != nil {
		return fmt.Errorf("writing events: %w", err)
	}
	return nil
}
