// Package httpsink is the HTTP sink of analytics events: it POSTs JSON
// arrays of events (batches bounded in count, bytes and time) to a URL,
// retrying with exponential backoff and full jitter on 5xx, 408, 429,
// timeouts and connection errors. It follows a redirect only within the
// URL's origin (SameOrigin), so neither a batch nor a header is ever
// posted to a host the operator did not name. It sits under internal/events and is fed
// by a Pipeline's bounded queue: while it retries, the queue fills and the
// pipeline counts what it drops; the traffic is never held up.
//
// A Sink runs on one goroutine (Run); its counters may be read from any.
package httpsink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/events"
)

// Options configure a Sink. Zero values mean the defaults in brackets.
type Options struct {
	// URL receives the POSTs; required.
	URL string
	// Header is added to every request (Content-Type is always
	// application/json).
	Header http.Header
	// Client sends the requests [NewClient(0)]; one without a redirect
	// policy of its own follows only SameOrigin redirects.
	Client *http.Client
	// BatchEvents [100] and BatchBytes [1 MiB] bound a batch;
	// FlushInterval [1s] is the longest an event waits for its batch.
	BatchEvents   int
	BatchBytes    int
	FlushInterval time.Duration
	// Timeout bounds one request [5s].
	Timeout time.Duration
	// MinBackoff [200ms] and MaxBackoff [10s] bound the wait before a
	// retry: a uniformly random time up to MinBackoff·2^attempt, capped.
	MinBackoff time.Duration
	MaxBackoff time.Duration
}

// Sink posts event batches.
type Sink struct {
	opts      Options
	delivered atomic.Int64
	failed    atomic.Int64
	retries   atomic.Int64
	lastErr   atomic.Value // string
}

// New returns a Sink.
func New(opts *Options) *Sink {
	s := &Sink{opts: *opts}
	o := &s.opts
	o.Client = WithSameOrigin(o.Client)
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.BatchEvents, 100)
	def(&o.BatchBytes, 1<<20)
	defd(&o.FlushInterval, time.Second)
	defd(&o.Timeout, 5*time.Second)
	defd(&o.MinBackoff, 200*time.Millisecond)
	defd(&o.MaxBackoff, 10*time.Second)
	return s
}

// Name implements events.Sink.
func (s *Sink) Name() string { return "http" }

// Delivered implements events.Sink.
func (s *Sink) Delivered() int64 { return s.delivered.Load() }

// Failed implements events.Sink.
func (s *Sink) Failed() int64 { return s.failed.Load() }

// Retries counts the requests that were retried.
func (s *Sink) Retries() int64 { return s.retries.Load() }

// batch is the body being built: a JSON array of n events.
type batch struct {
	body bytes.Buffer
	n    int
}

func (b *batch) add(line []byte) {
	if b.n == 0 {
		b.body.WriteByte('[')
	} else {
		b.body.WriteByte(',')
	}
	b.body.Write(line)
	b.n++
}

// Run implements events.Sink.
func (s *Sink) Run(ctx context.Context, in <-chan events.Event) error {
	var b batch
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	flush := func() {
		if b.n > 0 {
			b.body.WriteByte(']')
			s.send(ctx, b.body.Bytes(), b.n)
			b = batch{}
		}
	}
	for {
		select {
		case e, ok := <-in:
			if !ok {
				flush()
				return s.err()
			}
			line, err := events.Marshal(&e)
			if err != nil {
				s.failed.Add(1)
				continue
			}
			if b.n > 0 && b.body.Len()+len(line)+2 > s.opts.BatchBytes {
				flush()
			}
			if b.n == 0 {
				timer.Reset(s.opts.FlushInterval)
			}
			b.add(line)
			if b.n >= s.opts.BatchEvents || b.body.Len() >= s.opts.BatchBytes {
				flush()
			}
		case <-timer.C:
			flush()
		}
	}
}

// err returns the last delivery error when some events failed.
func (s *Sink) err() error {
	if s.failed.Load() == 0 {
		return nil
	}
	msg, _ := s.lastErr.Load().(string)
	return fmt.Errorf("%d events not delivered to %s (last error: %s)", s.failed.Load(), s.opts.URL, msg)
}

// send posts one batch until it is delivered, refused (a 4xx other than
// 408 and 429) or ctx is done.
func (s *Sink) send(ctx context.Context, body []byte, n int) {
	for attempt := 0; ; attempt++ {
		retry, err := s.post(ctx, body)
		if err == nil {
			s.delivered.Add(int64(n))
			return
		}
		s.lastErr.Store(err.Error())
		if !retry || ctx.Err() != nil {
			s.failed.Add(int64(n))
			return
		}
		s.retries.Add(1)
		t := time.NewTimer(Backoff(attempt, s.opts.MinBackoff, s.opts.MaxBackoff))
		select {
		case <-ctx.Done():
			t.Stop()
			s.failed.Add(int64(n))
			return
		case <-t.C:
		}
	}
}

// Backoff returns the full-jitter wait before retry attempt+1 (attempt 0
// is the first retry): a uniformly random time in (0, d], where d is
// minWait·2^attempt capped at maxWait. maxWait must be positive.
func Backoff(attempt int, minWait, maxWait time.Duration) time.Duration {
	d := minWait << min(attempt, 20)
	if d <= 0 || d > maxWait {
		d = maxWait
	}
	return time.Duration(rand.Int64N(int64(d)) + 1)
}

// Retryable reports whether a request that got the HTTP status is worth
// a retry: a 5xx, 408 (Request Timeout) or 429 (Too Many Requests). Any
// other 4xx would be refused again.
func Retryable(status int) bool {
	return status >= 500 || status == http.StatusRequestTimeout || status == http.StatusTooManyRequests
}

// post sends one request and reports whether a failure is worth a retry.
func (s *Sink) post(ctx context.Context, body []byte) (bool, error) {
	rctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, s.opts.URL, bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("building request: %w", err)
	}
	for k, vs := range s.opts.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		retry := !errors.Is(err, ErrCrossOrigin) && (!errors.Is(err, context.Canceled) || ctx.Err() == nil)
		return retry, fmt.Errorf("posting events: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch c := resp.StatusCode; {
	case c >= 200 && c <= 299:
		return false, nil
	case Retryable(c):
		return true, fmt.Errorf("posting events: HTTP %d", c)
	default:
		return false, fmt.Errorf("posting events: HTTP %d (not retried)", c)
	}
}
