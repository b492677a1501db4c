// Package mcpcat is the MCPcat (now AgentCat) API sink of analytics
// events: it posts each event, one a request, to the API's public events
// endpoint (POST /v1/public/events/) in the API's own schema (Body), with
// an `Authorization: Token …` header when given a token. It retries 5xx,
// 408, 429, timeouts and connection errors with exponential backoff and
// full jitter (httpsink's policy); any other 4xx (a 400 for an event type
// the API does not know, a 404 for an unknown project) rejects the event:
// it is counted by status and event type (Rejected, not Failed), never
// retried, and reported once, with what the API answered, in the error
// Run returns.
//
// It sits under internal/events and is fed by a Pipeline's bounded queue:
// while it retries, the queue fills and the pipeline counts what it drops;
// the traffic is never held up. It follows a redirect only within the base
// URL's origin (httpsink.SameOrigin): the token and the events never reach
// a host the operator did not name. A Sink runs on one goroutine (Run); its
// counters may be read from any.
package mcpcat

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/mcptrail/mcptrail/internal/events"
	"github.com/mcptrail/mcptrail/internal/events/httpsink"
)

// DefaultBaseURL is the public API's base URL (the AgentCat SDKs'
// default; the older MCPcat SDKs used https://api.mcpcat.io).
const DefaultBaseURL = "https://api.agentcat.com"

// EventsPath is the public events endpoint, below the base URL.
const EventsPath = "/v1/public/events/"

// Options configure a Sink. Zero values mean the defaults in brackets.
type Options struct {
	// BaseURL is the API's base URL [DefaultBaseURL]; the sink posts to
	// BaseURL + EventsPath.
	BaseURL string
	// Project is the MCPcat project id (project_id); required.
	Project string
	// Token, when set, is sent as `Authorization: Token <Token>`.
	Token string
	// Client sends the requests [httpsink.NewClient(0)]; one without a
	// redirect policy of its own follows only same-origin redirects
	// (httpsink.SameOrigin).
	Client *http.Client
	// Timeout bounds one request [5s].
	Timeout time.Duration
	// MinBackoff [200ms] and MaxBackoff [10s] bound the wait before a
	// retry: a uniformly random time up to MinBackoff·2^attempt, capped.
	MinBackoff time.Duration
	MaxBackoff time.Duration
}

// Sink posts events to the MCPcat API, one a request.
type Sink struct {
	opts      Options
	url       string
	delivered atomic.Int64
	failed    atomic.Int64
	rejected  atomic.Int64
	retries   atomic.Int64

	mu         sync.Mutex
	rejections map[rejection]int // events the API rejected
	answers    map[int]string    // status → the API's first answer with it
	skipped    map[string]int    // event type → events not sent
	lastErr    string            // the last transport or retried failure
	lost       int64             // events given up on
}

// rejection is a status the API rejected events of a type with.
type rejection struct {
	status    int
	eventType string
}

// New returns a Sink.
func New(opts *Options) *Sink {
	s := &Sink{opts: *opts, rejections: map[rejection]int{}, answers: map[int]string{}, skipped: map[string]int{}}
	o := &s.opts
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	o.Client = httpsink.WithSameOrigin(o.Client)
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&o.Timeout, 5 * time.Second}, {&o.MinBackoff, 200 * time.Millisecond}, {&o.MaxBackoff, 10 * time.Second}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	s.url = strings.TrimRight(o.BaseURL, "/") + EventsPath
	return s
}

// URL is where the sink posts.
func (s *Sink) URL() string { return s.url }

// Name implements events.Sink.
func (s *Sink) Name() string { return "mcpcat" }

// Delivered implements events.Sink.
func (s *Sink) Delivered() int64 { return s.delivered.Load() }

// Failed implements events.Sink: events given up on (errors, the flush
// deadline); events the API rejected are counted by Rejected instead.
func (s *Sink) Failed() int64 { return s.failed.Load() }

// Rejected implements events.Rejecter: events the API answered with a 4xx
// other than 408 and 429.
func (s *Sink) Rejected() int64 { return s.rejected.Load() }

// Retries counts the requests that were retried.
func (s *Sink) Retries() int64 { return s.retries.Load() }

// Rejections returns how many events the API rejected (a 4xx other than
// 408 and 429), keyed "HTTP <status> <event type>".
func (s *Sink) Rejections() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.rejections))
	for k, n := range s.rejections {
		out[fmt.Sprintf("HTTP %d %s", k.status, k.eventType)] = n
	}
	return out
}

// Skipped returns how many events were not sent because the API does not
// list their type (Sendable), by type.
func (s *Sink) Skipped() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.skipped)
}

// Sendable reports whether the sink posts events of type typ: the types
// of the API's event_type enum (its OpenAPI document, API v1), and the two
// elicitation types, which the enum does not list yet. Other types (such
// as 2026-07-28's mcp:server/discover) would only earn a 400.
func Sendable(typ string) bool {
	switch typ {
	case "mcp:ping", "mcp:initialize", "mcp:completion/complete", "mcp:logging/setLevel",
		"mcp:prompts/get", "mcp:prompts/list", "mcp:resources/list", "mcp:resources/templates/list",
		"mcp:resources/read", "mcp:resources/subscribe", "mcp:resources/unsubscribe",
		"mcp:tools/call", "mcp:tools/list", events.TypeElicitCreate, events.TypeElicitResponse:
		return true
	}
	return false
}

// Run implements events.Sink.
func (s *Sink) Run(ctx context.Context, in <-chan events.Event) error {
	for e := range in {
		if !Sendable(e.EventType) {
			s.mu.Lock()
			s.skipped[e.EventType]++
			s.mu.Unlock()
			continue
		}
		b, err := Body(&e, s.opts.Project)
		if err != nil {
			s.giveUp(err)
			continue
		}
		s.send(ctx, e.EventType, b)
	}
	return s.err()
}

// err sums up, in one line, what was not delivered.
func (s *Sink) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	if len(s.rejections) > 0 {
		parts = append(parts, s.rejectedText())
	}
	if len(s.skipped) > 0 {
		var n int
		for _, c := range s.skipped {
			n += c
		}
		parts = append(parts, fmt.Sprintf("%s not sent, of types the API does not list (%s)", nEvents(n), strings.Join(slices.Sorted(maps.Keys(s.skipped)), ", ")))
	}
	if s.lost > 0 {
		parts = append(parts, fmt.Sprintf("%s not delivered to %s (last error: %s)", nEvents(int(s.lost)), s.url, s.lastErr))
	}
	if len(parts) == 0 {
		return nil
	}
	return errors.New(strings.Join(parts, "; "))
}

// rejectedText says which events the API rejected, by status: how many
// of each type, and what the API answered. s.mu is held.
func (s *Sink) rejectedText() string {
	keys := slices.SortedFunc(maps.Keys(s.rejections), func(a, b rejection) int {
		return cmp.Or(cmp.Compare(a.status, b.status), strings.Compare(a.eventType, b.eventType))
	})
	var n int
	var groups []string
	for i := 0; i < len(keys); {
		status, elicit := keys[i].status, false
		var counts []string
		for ; i < len(keys) && keys[i].status == status; i++ {
			n += s.rejections[keys[i]]
			counts = append(counts, fmt.Sprintf("%d %s", s.rejections[keys[i]], keys[i].eventType))
			elicit = elicit || keys[i].eventType == events.TypeElicitCreate || keys[i].eventType == events.TypeElicitResponse
		}
		var why []string
		if elicit && status == http.StatusBadRequest {
			why = append(why, "its published event_type enum does not list the elicitation types yet")
		}
		if a := s.answers[status]; a != "" {
			why = append(why, "it answered: "+a)
		}
		g := fmt.Sprintf("HTTP %d for %s", status, strings.Join(counts, ", "))
		if len(why) > 0 {
			g += " (" + strings.Join(why, "; ") + ")"
		}
		groups = append(groups, g)
	}
	return fmt.Sprintf("%s rejected by the API at %s, not retried: %s", nEvents(n), s.url, strings.Join(groups, ", and "))
}

// nEvents is "1 event" or "N events".
func nEvents(n int) string {
	if n == 1 {
		return "1 event"
	}
	return fmt.Sprintf("%d events", n)
}

func (s *Sink) giveUp(err error) {
	s.failed.Add(1)
	s.mu.Lock()
	s.lost++
	s.lastErr = err.Error()
	s.mu.Unlock()
}

// reject counts an event the API rejected with status, and keeps its
// first answer with that status.
func (s *Sink) reject(status int, eventType, answer string) {
	s.rejected.Add(1)
	s.mu.Lock()
	s.rejections[rejection{status, eventType}]++
	if _, ok := s.answers[status]; !ok {
		s.answers[status] = answer
	}
	s.mu.Unlock()
}

// send posts one event until it is delivered, refused or ctx is done.
func (s *Sink) send(ctx context.Context, eventType string, body []byte) {
	for attempt := 0; ; attempt++ {
		status, answer, err := s.post(ctx, body)
		switch {
		case err == nil && status >= 200 && status <= 299:
			s.delivered.Add(1)
			return
		case err == nil && !httpsink.Retryable(status):
			s.reject(status, eventType, answer)
			return
		case errors.Is(err, httpsink.ErrCrossOrigin):
			s.giveUp(err) // a redirect elsewhere would be refused again
			return
		case err == nil:
			err = fmt.Errorf("posting an event: HTTP %d", status)
		}
		if ctx.Err() != nil {
			s.giveUp(err)
			return
		}
		s.retries.Add(1)
		t := time.NewTimer(httpsink.Backoff(attempt, s.opts.MinBackoff, s.opts.MaxBackoff))
		select {
		case <-ctx.Done():
			t.Stop()
			s.giveUp(err)
			return
		case <-t.C:
		}
	}
}

// post sends one request and returns the response's status and the start
// of its body, on one line.
func (s *Sink) post(ctx context.Context, body []byte) (int, string, error) {
	rctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return 0, "", fmt.Errorf("building request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.opts.Token != "" {
		req.Header.Set("Authorization", "Token "+strings.TrimPrefix(s.opts.Token, "Token "))
	}
	resp, err := s.opts.Client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("posting an event: %w", err)
	}
	start := make([]byte, answerBytes)
	n, _ := io.ReadFull(resp.Body, start)
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, oneLine(start[:n]), nil
}

// answerBytes is how much of a response's body the sink reports.
const answerBytes = 200

// oneLine is b on one line: its runs of white space and control
// characters one space, bytes that are not UTF-8 (a rune cut at
// answerBytes) left out, and "…" when b filled answerBytes.
func oneLine(b []byte) string {
	cut := len(b) >= answerBytes
	f := strings.FieldsFunc(strings.ToValidUTF8(string(b), ""), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	})
	s := strings.Join(f, " ")
	if cut {
		s += "…"
	}
	return s
}
