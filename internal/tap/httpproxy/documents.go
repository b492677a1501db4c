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

// challengeCheck hints, on the reverse proxy with an OnHint, at a 401
// whose WWW-Authenticate names resource_metadata as an absolute URL on
// the target's own origin: the client fetches the metadata there, around
// this proxy, and spec-following clients refuse the resource it names.
func (p *Proxy) challengeCheck(resp *http.Response) {
	if p.hint == nil || p.fwd != nil || resp.StatusCode != http.StatusUnauthorized {
		return
	}
	for _, v := range resp.Header.Values("WWW-Authenticate") {
		m, err := url.Parse(resourceMetadata(v))
		if err != nil || !m.IsAbs() || !strings.EqualFold(m.Scheme, p.target.Scheme) || !strings.EqualFold(m.Host, p.target.Host) {
			continue
		}
		p.challengeOnce.Do(func() {
			p.hint(fmt.Sprintf("the server's 401 names resource_metadata %s on the target's own origin: OAuth clients fetch it there, "+
				"around this proxy, and will refuse its resource, which is not this proxy's URL; "+
				"run mcptrail http --forward and keep the server's URL in the client instead", m.Redacted()))
		})
		return
	}
}

// resourceMetadata returns the resource_metadata parameter of a
// WWW-Authenticate value (quoted or not), "" when it has none.
func resourceMetadata(v string) string {
	i := strings.Index(strings.ToLower(v), "resource_metadata")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(v[i+len("resource_metadata"):], " \t")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	if strings.HasPrefix(rest, `"`) {
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return ""
		}
		return rest[1 : end+1]
	}
	if end := strings.IndexAny(rest, ", \t"); end >= 0 {
		return rest[:end]
	}
	return rest
}
