package httpsink

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/events"
)

// TestSameOrigin checks which redirects SameOrigin follows: the origin is
// scheme, host and port, a default port written or not.
func TestSameOrigin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"http://h/a", "http://h/b?x=1", true},
		{"http://h/a", "http://H:80/b", true},
		{"https://h/a", "https://h:443/b", true},
		{"https://h/a", "http://h/b", false},
		{"http://h/a", "https://h/b", false},
		{"http://h:1/a", "http://h:2/a", false},
		{"http://h/a", "http://evil/a", false},
	} {
		from, _ := url.Parse(c.from)
		to, _ := url.Parse(c.to)
		err := SameOrigin(&http.Request{URL: to}, []*http.Request{{URL: from}})
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrCrossOrigin)) {
			t.Errorf("%s → %s: %v, want followed %v", c.from, c.to, err, c.ok)
		}
	}
}

// TestSinkFollowsSameOriginRedirect posts to a path that redirects (308)
// to another path of the same server: the batch is delivered there.
func TestSinkFollowsSameOriginRedirect(t *testing.T) {
	t.Parallel()
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusPermanentRedirect)
			return
		}
		got.Add(1)
	}))
	defer srv.Close()
	s := New(&Options{URL: srv.URL + "/old", FlushInterval: time.Millisecond})
	in := make(chan events.Event, 1)
	in <- events.Event{ID: "e-1", EventType: "mcp:tools/call"}
	close(in)
	if err := s.Run(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if got.Load() != 1 || s.Delivered() != 1 {
		t.Errorf("%d posts reached /new, %d delivered; want 1, 1", got.Load(), s.Delivered())
	}
}
