package httpsink

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/events"
)

// flaky is a receiver that fails in the ways the sink must survive: it
// answers the first posts with 500, then stalls one for 5 s (past the
// sink's timeout), then accepts.
type flaky struct {
	mu    sync.Mutex
	posts int
	got   map[string]int // event id → deliveries accepted
	hdr   string
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.posts++
	n := f.posts
	f.hdr = r.Header.Get("X-Team")
	f.mu.Unlock()
	switch {
	case n <= 2:
		http.Error(w, "boom", http.StatusInternalServerError)
		return
	case n == 3:
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
		return
	}
	var evs []events.Event
	if err := json.UnmarshalRead(r.Body, &evs); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	for _, e := range evs {
		f.got[e.ID]++
	}
	f.mu.Unlock()
}

// TestRecovers posts to a port nobody listens on (connection refused),
// then to a server that answers 500 twice and stalls once for 5 s: every
// event is delivered once it recovers, after retries, and nothing fails.
func TestRecovers(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // refused until the server starts
	f := &flaky{got: map[string]int{}}
	refused := make(chan struct{}, 1)
	s := New(&Options{
		URL: "http://" + addr + "/events", Header: http.Header{"X-Team": {"blue"}},
		BatchEvents: 10, FlushInterval: 20 * time.Millisecond, Timeout: 300 * time.Millisecond,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		Client: &http.Client{Transport: refusedCounter(refused)},
	})
	in := make(chan events.Event, 100)
	const n = 25
	for i := range n {
		in <- events.Event{ID: "e-" + strconv.Itoa(i), EventType: "mcp:tools/call"}
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), in) }()
	for range 2 { // a first attempt and a retry, both refused
		select {
		case <-refused:
		case <-time.After(10 * time.Second):
			t.Fatal("the sink made no second attempt")
		}
	}
	srv := &http.Server{Handler: f}
	var ln2 net.Listener
	for range 50 {
		if ln2, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond) // polling for the port the kernel frees, not ordering events
	}
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln2)
	defer srv.Close()
	close(in)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the sink did not finish")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.got) != n {
		t.Errorf("server got %d distinct events, want %d", len(f.got), n)
	}
	if s.Delivered() != n || s.Failed() != 0 {
		t.Errorf("delivered %d, failed %d; want %d, 0", s.Delivered(), s.Failed(), n)
	}
	if s.Retries() < 3 || f.posts < 4 {
		t.Errorf("%d retries, %d posts; want refused, 500, 500 and a timeout retried", s.Retries(), f.posts)
	}
	if f.hdr != "blue" {
		t.Errorf("X-Team header = %q, want blue", f.hdr)
	}
}

// TestDeadline gives up on a server that never answers once the flush
// deadline passes, counting the events as failed.
func TestDeadline(t *testing.T) {
	t.Parallel()
	stall := make(chan struct{})
	defer close(stall)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	s := New(&Options{URL: "http://" + ln.Addr().String(), FlushInterval: 10 * time.Millisecond, Timeout: time.Second})
	in := make(chan events.Event, 3)
	for i := range 3 {
		in <- events.Event{ID: strconv.Itoa(i)}
	}
	close(in)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := s.Run(ctx, in); err == nil {
		t.Error("Run reported no error for undelivered events")
	}
	// A liveness bound: Run must give up at the deadline, not wait out the
	// 1 s per-request timeout three times over; 2 s leaves a loaded machine room.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run took %v past a 300ms deadline", d)
	}
	if s.Failed() != 3 || s.Delivered() != 0 {
		t.Errorf("failed %d, delivered %d; want 3, 0", s.Failed(), s.Delivered())
	}
}

// refusedCounter is a transport that signals on refused each time a dial
// fails, so a test can wait for the sink's refused attempts.
func refusedCounter(refused chan<- struct{}) *http.Transport {
	var d net.Dialer
	return &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			select {
			case refused <- struct{}{}:
			default:
			}
		}
		return c, err
	}}
}
