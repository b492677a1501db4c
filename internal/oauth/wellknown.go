package oauth

import (
	"net"
	"net/url"
	"strings"
)

// The well-known suffixes (RFC 9728 §3, RFC 8414 §3, OIDC discovery §4).
const (
	wkResource = "/.well-known/oauth-protected-resource"
	wkServer   = "/.well-known/oauth-authorization-server"
	wkOIDC     = "/.well-known/openid-configuration"
)

// location is what a well-known URL says about itself.
type location struct {
	kind string // StepResourceMeta, StepServerMeta or ""
	// id is the identifier the URL was formed from: the resource for
	// resource metadata, the issuer for server metadata.
	id   string
	oidc bool
	// appended is set when the well-known suffix follows the identifier's
	// path instead of being inserted before it (OIDC's form; wrong for
	// RFC 8414 and RFC 9728).
	appended bool
}

// wellKnown classifies a URL; kind "" means it is no metadata location.
func wellKnown(raw string) location {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return location{}
	}
	origin := u.Scheme + "://" + u.Host
	p := u.Path
	for _, c := range []struct {
		suffix, kind string
		oidc         bool
	}{{wkResource, StepResourceMeta, false}, {wkServer, StepServerMeta, false}, {wkOIDC, StepServerMeta, true}} {
		if rest, ok := strings.CutPrefix(p, c.suffix); ok && (rest == "" || rest[0] == '/') {
			return location{kind: c.kind, id: origin + rest, oidc: c.oidc}
		}
		if before, ok := strings.CutSuffix(p, c.suffix); ok && before != "" {
			return location{kind: c.kind, id: origin + before, oidc: c.oidc, appended: true}
		}
	}
	return location{}
}

// insertedURL is the metadata URL RFC 8414 §3.1 and RFC 9728 §3.1 form
// from an identifier: the suffix inserted between host and path, a
// terminating "/" of the path removed.
func insertedURL(id, suffix string) string {
	u, err := url.Parse(id)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host + suffix + strings.TrimSuffix(u.EscapedPath(), "/")
}

// hasPath reports whether an identifier has a path other than "/".
func hasPath(id string) bool {
	u, err := url.Parse(id)
	return err == nil && strings.Trim(u.Path, "/") != ""
}

// sameID compares two identifiers, tolerating a terminating "/" on either
// (the form RFC 8414 §3.1 strips before forming the metadata URL).
func sameID(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// origin returns scheme://host of a URL, or "".
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// stripQuery returns a URL without its query and fragment.
func stripQuery(raw string) string {
	raw, _, _ = strings.Cut(raw, "#")
	raw, _, _ = strings.Cut(raw, "?")
	return raw
}

// Insecure reports whether an endpoint URL is neither https nor on a
// loopback host (localhost, 127.0.0.0/8, ::1), which OAuth 2.1 §1.5 and
// RFC 8414 §2 require.
func Insecure(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return true
	}
	if strings.EqualFold(u.Scheme, "https") {
		return false
	}
	return !loopback(u.Hostname())
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// resourceCovers reports whether a protected-resource metadata resource
// identifies the URL the client used: equal (a terminating "/" aside), or
// the same origin with a path that is a segment prefix of the URL's, which
// is what the MCP SDKs accept (RFC 9728 §3.3 asks for identity with the
// identifier the metadata URL was formed from).
func resourceCovers(resource, used string) bool {
	if sameID(resource, stripQuery(used)) {
		return true
	}
	r, err1 := url.Parse(resource)
	u, err2 := url.Parse(stripQuery(used))
	if err1 != nil || err2 != nil || !strings.EqualFold(r.Scheme, u.Scheme) || !strings.EqualFold(r.Host, u.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	return rp == "" || u.Path == rp || strings.HasPrefix(u.Path, rp+"/")
}

// ResourceCovers reports whether a protected-resource metadata resource
// identifies the URL the client used (see resourceCovers).
func ResourceCovers(resource, used string) bool { return resourceCovers(resource, used) }

// WrongMetadataPath reports whether authorization-server metadata fetched
// at u is at a location RFC 8414 §3.1 (or OIDC discovery §4) does not form
// for the path-bearing issuer: the same origin, the well-known suffix at
// the root or appended after the path of an RFC 8414 suffix. It returns
// the URL RFC 8414 forms.
func WrongMetadataPath(u, issuer string) (string, bool) {
	if !hasPath(issuer) || origin(u) != origin(issuer) {
		return "", false
	}
	at := wellKnown(u)
	if at.kind != StepServerMeta || sameID(at.id, issuer) && (!at.appended || at.oidc) {
		return "", false
	}
	if !sameID(at.id, origin(issuer)) && !(at.appended && sameID(at.id, issuer)) {
		return "", false // metadata of another issuer on the same host
	}
	return insertedURL(issuer, wkServer), true
}
