package store

import (
	"net/url"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// SSETransport is what the session shows of the 2024-11-05 HTTP+SSE
// transport (mcp.SSEEventEndpoint): the first endpoint event seen. A zero
// Seq means the session never used it.
type SSETransport struct {
	// Seq is the endpoint event's frame.
	Seq uint64
	// Endpoint is the URI it named, resolved against the stream's URL,
	// without its query (which holds the server's session id): a path
	// behind the reverse proxy, an absolute URL behind the forward proxy.
	// Empty when the event's data was no URI.
	Endpoint string
}

// sseState holds the endpoints the session's endpoint events named
// (endpointKey spelling), one per server, in order of first use.
type sseState struct {
	endpoints []string
}

// sseFrame notes an endpoint event and reports whether r is a frame of the
// HTTP+SSE transport that carries no message: the endpoint event itself,
// or a success answering a POST to a known endpoint whose body is not
// JSON-RPC (the SDKs answer "Accepted"; the answer proper arrives on the
// stream). It reports, second, whether r crossed that transport at all:
// those frames and the messages POSTed to an endpoint (Frame.SSE).
func (s *Store) sseFrame(r *capture.Record, f *wire.Frame) (status, sse bool) {
	env := r.HTTP
	if r.Dir == capture.S2C && env.Event == mcp.SSEEventEndpoint && env.Method == "GET" {
		s.sseEndpoint(r)
		return true, true
	}
	if env.Method != "POST" || len(s.sse.endpoints) == 0 || !slices.Contains(s.sse.endpoints, endpointKey(env)) {
		return false, false
	}
	return r.Dir == capture.S2C && success(env.Status) && f.Kind == wire.KindInvalid, true
}

// sseEndpoint keeps the endpoint an endpoint event named.
func (s *Store) sseEndpoint(r *capture.Record) {
	env := r.HTTP
	base := env.Path
	if env.URL != "" {
		base = env.URL
	}
	key := ""
	if u, ok := mcp.SSEEndpoint(base, string(r.Bytes())); ok {
		if env.URL == "" {
			// Behind the reverse proxy the client POSTs to the proxy,
			// which keeps the path alone.
			u.Scheme, u.Host = "", ""
		}
		key = urlKey(u)
		if !slices.Contains(s.sse.endpoints, key) {
			s.sse.endpoints = append(s.sse.endpoints, key)
		}
	}
	if s.sess.SSE.Seq == 0 {
		s.sess.SSE = SSETransport{Seq: r.Seq, Endpoint: key}
	}
}

// endpointKey spells a request's target as sseEndpoint keeps endpoints:
// its path, or behind the forward proxy its URL without the query.
func endpointKey(env *capture.HTTP) string {
	if env.URL == "" {
		return env.Path
	}
	u, err := url.Parse(env.URL)
	if err != nil {
		return ""
	}
	return urlKey(u)
}

// urlKey is u's scheme, host and path (decoded), or its path alone when it
// names no host.
func urlKey(u *url.URL) string {
	if u.Host == "" {
		return u.Path
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + u.Path
}
