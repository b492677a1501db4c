package httpproxy

import (
	"errors"
	"io"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// oneReader is a request body that records how many reads ran at once:
// Go's server panics on two concurrent reads of one body.
type oneReader struct {
	r         io.Reader
	in, maxIn atomic.Int32
}

func (o *oneReader) Read(p []byte) (int, error) {
	n := o.in.Add(1)
	defer o.in.Add(-1)
	for m := o.maxIn.Load(); n > m && !o.maxIn.CompareAndSwap(m, n); m = o.maxIn.Load() {
	}
	return o.r.Read(p)
}

func (o *oneReader) Close() error { return nil }

// TestDrainWhileTransportReads: the transport is blocked reading the
// request body when the handler's finishRequest drains it. The two reads
// must take turns (never two at once), the drain gets the rest, and a read
// after the drain gets errDrained instead of touching the body of an
// exchange that is over.
func TestDrainWhileTransportReads(t *testing.T) {
	u, err := url.Parse("http://127.0.0.1:1/mcp")
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(&Options{Target: u, Capture: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pr, pw := io.Pipe()
	body := &oneReader{r: pr}
	ex := &exchange{p: p, id: "x1", method: "POST", path: "/mcp"}
	b := &bodyTap{rc: body, p: p, ex: ex, dir: capture.C2S, env: &capture.HTTP{}}

	var wg sync.WaitGroup
	wg.Add(2)
	started := make(chan struct{})
	go func() { // the transport's read, blocked on the client
		defer wg.Done()
		close(started)
		_, _ = b.Read(make([]byte, 8))
	}()
	<-started
	for body.in.Load() == 0 { // wait until it is inside the body's Read
		time.Sleep(time.Millisecond) // polling a count, not ordering events
	}
	drained := make(chan struct{})
	go func() { // the handler returns: finishRequest drains the rest
		defer wg.Done()
		b.finishRequest()
		close(drained)
	}()
	// Give a second read the chance to start (it must not): up to 200 ms.
	for deadline := time.Now().Add(200 * time.Millisecond); body.in.Load() < 2 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond) // a window for a read that must not start: no event to wait for
	}
	if _, err := io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("finishRequest did not return after the body ended")
	}
	wg.Wait()
	if m := body.maxIn.Load(); m != 1 {
		t.Errorf("%d reads of the body ran at once, want 1", m)
	}
	if _, err := b.Read(make([]byte, 8)); !errors.Is(err, errDrained) {
		t.Errorf("a read after the drain: %v, want errDrained", err)
	}
}
