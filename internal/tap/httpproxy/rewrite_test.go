package httpproxy

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
)

// TestRewriteQuery: the target's query goes with requests for the MCP
// endpoint only; /.well-known/* and other paths keep their own query.
func TestRewriteQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target, in, want string
	}{
		{"http://h:1/mcp?apikey=k", "/", "http://h:1/mcp?apikey=k"},
		{"http://h:1/mcp?apikey=k", "/mcp?x=1", "http://h:1/mcp?apikey=k&x=1"},
		{"http://h:1/mcp?apikey=k", "/.well-known/oauth-protected-resource", "http://h:1/.well-known/oauth-protected-resource"},
		{"http://h:1/mcp?apikey=k", "/.well-known/oauth-authorization-server?x=1", "http://h:1/.well-known/oauth-authorization-server?x=1"},
		{"http://h:1/mcp?apikey=k", "/other", "http://h:1/other"},
		{"http://h:1/?k=1", "/", "http://h:1/?k=1"},
		{"http://h:1?k=1", "/", "http://h:1/?k=1"},
		{"http://h:1/?k=1", "/.well-known/x", "http://h:1/.well-known/x"},
		{"http://h:1/mcp", "/?y=2", "http://h:1/mcp?y=2"},
	}
	for _, tc := range tests {
		target, err := url.Parse(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(&Options{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		in := httptest.NewRequest("GET", "http://127.0.0.1:7000"+tc.in, nil)
		pr := &httputil.ProxyRequest{In: in, Out: in.Clone(in.Context())}
		p.rewrite(pr)
		if got := pr.Out.URL.String(); got != tc.want {
			t.Errorf("target %s, request %s: forwarded to %s, want %s", tc.target, tc.in, got, tc.want)
		}
	}
}
