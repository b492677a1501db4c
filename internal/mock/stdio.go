package mock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// ServeStdio plays the mock over stdio framing: one JSON-RPC message a
// line read from in, one written to out. It returns nil when in ends, or
// the first read or write error.
func (m *Mock) ServeStdio(in io.Reader, out io.Writer) error {
	w := &lineSender{w: out}
	br := bufio.NewReader(in)
	for {
		line, err := br.ReadBytes('\n')
		if msg := bytes.TrimSpace(line); len(msg) > 0 {
			m.Serve(msg, w)
		}
		if werr := w.error(); werr != nil {
			return fmt.Errorf("writing to the client: %w", werr)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading from the client: %w", err)
		}
	}
}

// lineSender writes each message as a line; the first write error sticks.
type lineSender struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (s *lineSender) Send(msg []byte, _ bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	_, s.err = s.w.Write(append(msg[:len(msg):len(msg)], '\n'))
}

func (s *lineSender) error() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
