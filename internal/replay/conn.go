package replay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// ErrTimeout is wrapped by the error a replay returns when the server
// did not answer within Options.Timeout.
var ErrTimeout = errors.New("timed out")

// ErrServerGone is wrapped by the error a replay returns when the server
// closed its output or stopped taking input (it exited or crashed) before
// answering.
var ErrServerGone = errors.New("the server is gone")

// conn is the client end of a newline-delimited JSON-RPC stream (the stdio
// transport). One goroutine reads frames into a channel until the stream
// ends; after stop it reads on and discards, so the writer never blocks.
type conn struct {
	w      io.Writer
	r      io.ReadCloser
	frames chan wire.Frame
	done   chan struct{}
	once   sync.Once
	err    error // set before frames is closed: why reading stopped
}

func newConn(w io.Writer, r io.ReadCloser) *conn {
	c := &conn{w: w, r: r, frames: make(chan wire.Frame), done: make(chan struct{})}
	go c.read()
	return c
}

// read decodes one frame a line until the stream ends; a frame that is
// not JSON-RPC is handed on as KindInvalid (the capture keeps it).
func (c *conn) read() {
	defer close(c.frames)
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			select {
			case c.frames <- wire.Decode(line):
			case <-c.done: // nobody listens any more: discard, so the tap never blocks on us
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = ErrServerGone
			}
			c.err = err
			return
		}
	}
}

// send writes one message and its newline, waiting at most timeout for
// the server to take it. A write that times out is left to fail when the
// caller closes the stream (Stdio does), and the conn is not used again.
func (c *conn) send(msg []byte, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() {
		_, err := c.w.Write(append(msg, '\n'))
		done <- err
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("writing to the server: %w", err)
		}
		return nil
	case <-t.C:
		return fmt.Errorf("the server took no input in %v: %w", timeout, ErrTimeout)
	}
}

// next returns the next frame from the server, waiting until deadline;
// timeout is what the error reports.
func (c *conn) next(deadline time.Time, timeout time.Duration) (wire.Frame, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case f, ok := <-c.frames:
		if !ok {
			return wire.Frame{}, c.err
		}
		return f, nil
	case <-t.C:
		return wire.Frame{}, fmt.Errorf("no answer from the server in %v: %w", timeout, ErrTimeout)
	}
}

// stop makes the reader discard what it reads from now on.
func (c *conn) stop() { c.once.Do(func() { close(c.done) }) }

// wait stops the reader and waits until the stream it reads has ended (the
// writer closed it).
func (c *conn) wait() {
	c.stop()
	for range c.frames { //nolint:revive // drain until the reader has stopped
	}
}
