package mcp

import (
	"strings"
	"testing"
)

func TestSSEEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stream, data string
		want         string // "" for not ok
	}{
		{"/sse", "/message?sessionId=1", "/message"},        // the TypeScript SDK's SSEServerTransport
		{"/sse", "/messages/?session_id=ab", "/messages/"},  // the Python SDK's
		{"/mcp/sse", "message?sessionId=1", "/mcp/message"}, // relative to the stream
		{"/sse", "http://127.0.0.1:3001/message?x=1", "http://127.0.0.1:3001/message"},
		{"http://h:1/sse", "/message?sessionId=1", "http://h:1/message"}, // the forward proxy keeps URLs
		{"http://h:1/sse", "https://u:p@other/", "https://other/"},
		{"/sse", "HTTP://h", "http://h/"},
		{"/sse", "", ""},
		{"/sse", "mailto:x@y", ""},
		{"/sse", "ws://h/message", ""},
		{"/sse", "/a\n/b", ""},
		{"/sse", "/\xff", ""},
		{"/sse", "%zz", ""},
	}
	for _, tc := range tests {
		u, ok := SSEEndpoint(tc.stream, tc.data)
		got := ""
		if ok {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("SSEEndpoint(%q, %q) = %q, %v; want %q", tc.stream, tc.data, got, ok, tc.want)
		}
	}
}

// FuzzSSEEndpoint: whatever an endpoint event holds, SSEEndpoint does not
// panic, and an endpoint it accepts is an absolute path or an http(s)
// URL, without query, fragment or credentials, that reads back as itself
// (unless its path starts with "//", which a URI cannot spell alone).
func FuzzSSEEndpoint(f *testing.F) {
	for _, s := range []string{"/message?sessionId=1", "message", "http://h/m?x", "//h/p", "../../x", "?q", "#f", "mailto:a", "http://[::1", "/%2F%zz"} {
		f.Add("/sse", s)
		f.Add("http://h:1/a/sse", s)
	}
	f.Fuzz(func(t *testing.T, stream, data string) {
		u, ok := SSEEndpoint(stream, data)
		if !ok {
			return
		}
		if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil || u.Opaque != "" {
			t.Fatalf("SSEEndpoint(%q, %q) = %q keeps a query, fragment, credentials or opaque part", stream, data, u)
		}
		if u.Host == "" && !strings.HasPrefix(u.Path, "/") {
			t.Fatalf("SSEEndpoint(%q, %q) = %q: a relative path", stream, data, u)
		}
		if s := strings.ToLower(u.Scheme); u.Scheme != "" && s != "http" && s != "https" {
			t.Fatalf("SSEEndpoint(%q, %q) = %q: scheme %q", stream, data, u, u.Scheme)
		}
		if u.Host == "" && strings.HasPrefix(u.Path, "//") {
			return // a path of this shape has no URI spelling of its own (it reads as an authority)
		}
		back, ok := SSEEndpoint(stream, u.String())
		if !ok || back.Path != u.Path || back.Host != u.Host {
			t.Fatalf("SSEEndpoint(%q, %q) = %q, which reads back as %v, %v", stream, data, u, back, ok)
		}
	})
}
