package mcpserve

import (
	"bytes"
	"context"
	"io"
	"sync"
	"time"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// drainWait bounds how long the end of the input waits for the answers
// still owed.
const drainWait = 60 * time.Second

// drain sits on both ends of the stdio transport and counts the requests
// read and the answers written, so that the end of the input waits until
// every request read has its answer: a client that writes its requests
// and closes its end (a shell pipe) still reads every answer. The SDK
// reads on one goroutine and writes on others; mu guards the counts.
type drain struct {
	ctx context.Context
	in  io.Reader
	out io.Writer

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced whenever answered grows
	inLine   []byte        // the input's unfinished line
	outLine  []byte        // the output's unfinished line
	asked    int
	answered int
}

func newDrain(ctx context.Context, in io.Reader, out io.Writer) *drain {
	return &drain{ctx: ctx, in: in, out: out, changed: make(chan struct{})}
}

// Read reads the input; at its end it waits (at most drainWait, or until
// ctx ends) for the answers owed before it returns io.EOF.
func (d *drain) Read(p []byte) (int, error) {
	n, err := d.in.Read(p)
	d.mu.Lock()
	d.inLine = lines(append(d.inLine, p[:n]...), func(l []byte) {
		if wire.Decode(l).Kind == wire.KindRequest {
			d.asked++
		}
	})
	d.mu.Unlock()
	if err == io.EOF {
		d.wait()
	}
	return n, err
}

func (d *drain) wait() {
	timeout := time.NewTimer(drainWait)
	defer timeout.Stop()
	for {
		d.mu.Lock()
		owed, changed := d.asked > d.answered, d.changed
		d.mu.Unlock()
		if !owed {
			return
		}
		select {
		case <-changed:
		case <-timeout.C:
			return
		case <-d.ctx.Done():
			return
		}
	}
}

// Write writes to the output and counts the answers in it.
func (d *drain) Write(p []byte) (int, error) {
	n, err := d.out.Write(p)
	d.mu.Lock()
	before := d.answered
	d.outLine = lines(append(d.outLine, p[:n]...), func(l []byte) {
		if k := wire.Decode(l).Kind; k == wire.KindResponse || k == wire.KindError {
			d.answered++
		}
	})
	if d.answered != before {
		close(d.changed)
		d.changed = make(chan struct{})
	}
	d.mu.Unlock()
	return n, err
}

// Close is the output's: the process's standard output stays open.
func (d *drain) Close() error { return nil }

// lines calls fn with every complete line of b and returns the rest.
func lines(b []byte, fn func([]byte)) []byte {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return b
		}
		if l := bytes.TrimSpace(b[:i]); len(l) > 0 {
			fn(l)
		}
		b = b[i+1:]
	}
}
