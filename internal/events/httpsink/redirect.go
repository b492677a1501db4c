package httpsink

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrCrossOrigin is the error of a request the receiver redirected to
// another origin (scheme, host or port): the redirect is not followed, so
// the body and the configured headers never reach a host nobody named,
// and never go from https to http. Such a request is not retried.
var ErrCrossOrigin = errors.New("redirected to another origin, not followed")

// maxRedirects bounds the same-origin redirects one request follows, as
// net/http's default policy does.
const maxRedirects = 10

// SameOrigin is an http.Client CheckRedirect that follows a redirect only
// to the origin of the first request, at most maxRedirects times. Any other
// redirect ends the request with an error wrapping ErrCrossOrigin, naming
// the origin it pointed at (not its path or query, which may carry tokens).
func SameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	if from := via[0].URL; origin(req.URL) != origin(from) {
		return fmt.Errorf("%s answered with a redirect to %s: %w", origin(from), origin(req.URL), ErrCrossOrigin)
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// origin is u's scheme and host with its port made explicit, so that
// http://h and http://h:80 are one origin.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// NewClient returns the client the event sinks post with: net/http's
// default transport (which honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY,
// docs/events.md), SameOrigin redirects, and timeout for a whole request
// (0: none).
func NewClient(timeout time.Duration) *http.Client {
	return &http.Client{CheckRedirect: SameOrigin, Timeout: timeout}
}

// WithSameOrigin returns c, or a copy of it that follows SameOrigin
// redirects when it has no redirect policy of its own (nil: NewClient(0)).
// The HTTP sinks (this one and mcpcat's) post through it.
func WithSameOrigin(c *http.Client) *http.Client {
	if c == nil {
		return NewClient(0)
	}
	if c.CheckRedirect != nil {
		return c
	}
	cc := *c
	cc.CheckRedirect = SameOrigin
	return &cc
}
