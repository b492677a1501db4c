package httpproxy

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The reverse proxy serves documents off the MCP endpoint too (OAuth
// metadata under /.well-known, say): each is an exchange record, and
// protected-resource metadata is checked against the proxy's own URL.

// wellKnownResource is the path prefix of OAuth protected-resource
// metadata (RFC 9728 section 3).
const wellKnownResource = "/.well-known/oauth-protected-resource"

// targetURL is the URL a request off the endpoint goes to on the target:
// the target's origin with the request's path and query (rewrite).
func (p *Proxy) targetURL(in *url.URL) *url.URL {
	return &url.URL{Scheme: p.target.Scheme, Host: p.target.Host, Path: in.Path, RawPath: in.RawPath, RawQuery: in.RawQuery}
}

// documentCheck returns, for a request of protected-resource metadata
// when the proxy has an OnHint, the check of the document it gets: a
// resource that is not the URL the client used (this proxy's) is one
// that spec-following clients refuse. Nil otherwise.
func (p *Proxy) documentCheck(r *http.Request) func([]byte) {
	if p.hint == nil || !strings.HasPrefix(r.URL.Path, wellKnownResource) {
		return nil
	}
	own := &url.URL{Scheme: "http", Host: r.Host, Path: p.target.Path}
	if r.TLS != nil {
		own.Scheme = "https"
	}
	return func(body []byte) {
		if !jsontext.Value(body).IsValid() {
			return
		}
		res, ok := jsonraw.String(jsonraw.Member(body, "resource"))
		if !ok || sameOrigin(res, own) {
			return
		}
		p.hintOnce.Do(func() {
			p.hint(fmt.Sprintf("the server's protected-resource metadata names resource %s, not this proxy's URL %s: "+
				"OAuth clients that follow RFC 9728 will refuse it; run mcptrail http --forward and keep the server's URL in the client instead",
				res, own))
		})
	}
}

// sameOrigin reports whether the resource URL s has own's scheme and host.
func sameOrigin(s string, own *url.URL) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return strings.EqualFold(u.Scheme, own.Scheme) && strings.EqualFold(u.Host, own.Host)
}
