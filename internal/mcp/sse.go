package mcp

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// The HTTP+SSE transport of 2024-11-05 (modelcontextprotocol/modelcontextprotocol,
// docs/specification/2024-11-05/basic/transports.mdx § HTTP with SSE): the
// client opens an event stream with a GET; the server's first event is an
// "endpoint" event whose data is the URI the client POSTs every message
// to; the server's messages arrive as "message" events on that stream.
// Deprecated since 2025-03-26, and in the 2026-07-28 registry
// (docs/specification/2026-07-28/deprecated.mdx, SEP-2596).
const (
	// SSEEventEndpoint is the type of the event that names the POST
	// endpoint.
	SSEEventEndpoint = "endpoint"
	// SSEEventMessage is the type of an event carrying a message, and the
	// type of an event that names none (WHATWG HTML § 9.2.6).
	SSEEventMessage = "message"
	// VersionHTTPSSE is the revision that defined the transport.
	VersionHTTPSSE = "2024-11-05"
)

// SSEEndpoint reads the data of an endpoint event sent on the event
// stream of a GET of stream (the request's absolute URL, or its path): the
// URI the client is to POST its messages to, absolute or relative to the
// stream's URL. It returns that URI resolved against stream, without its
// query and fragment (the query holds the server's session id, different
// for every client), and false when data is not a URI reference an HTTP
// client could POST to (empty, several lines, not UTF-8, a scheme other
// than http or https, an opaque URI).
func SSEEndpoint(stream, data string) (*url.URL, bool) {
	if data == "" || !utf8.ValidString(data) || strings.ContainsAny(data, "\r\n") {
		return nil, false
	}
	u, err := url.Parse(data)
	if err != nil || u.Opaque != "" {
		return nil, false
	}
	if u.Scheme != "" && !isHTTPScheme(u.Scheme) {
		return nil, false
	}
	base, err := url.Parse(stream)
	switch {
	case err != nil || base.Opaque != "":
		base = &url.URL{}
	case base.Scheme == "" || !isHTTPScheme(base.Scheme):
		// Not an http(s) URL: a path (what the reverse proxy keeps).
		base = &url.URL{Path: base.Path}
	}
	if base.Host == "" && !strings.HasPrefix(base.Path, "/") {
		base.Path = "/" + base.Path
	}
	out := base.ResolveReference(u)
	if out.Path == "" {
		out.Path = "/"
	}
	out.RawQuery, out.ForceQuery, out.Fragment, out.RawFragment, out.User = "", false, "", "", nil
	return out, true
}

// isHTTPScheme reports whether a URL scheme is http or https.
func isHTTPScheme(s string) bool {
	return strings.EqualFold(s, "http") || strings.EqualFold(s, "https")
}
