// Package admit decides whether an HTTP request may reach one of
// mcptrail's listeners: the reverse proxy of `mcptrail http`, `mcptrail
// mock --http` and the taps' /metrics. It is the one request policy
// DESIGN.md asks for: a request whose Host names none of the listener's
// names (DNS rebinding) or that carries a browser Origin that is neither
// loopback, the listener itself, nor listed (a cross-site request) is
// refused with 403; a POST to an MCP endpoint whose Content-Type is not
// application/json is refused with 415 (a "simple" cross-site POST is
// text/plain, and Streamable HTTP clients POST JSON, spec 5.2).
//
// Clients that are not browsers send no Origin and pass the Origin check;
// a browser client served from loopback (the MCP Inspector on
// localhost:6274) passes it too. The forward proxy does not use the
// policy: the Host and Origin of the requests it relays are the origins'
// own, and it serves nothing to a request in origin form.
//
// The package sits below the taps and the views and knows no MCP message;
// a Policy is immutable once made and safe for concurrent use.
package admit

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Kinds of Refusal.
const (
	// KindHost: the Host header names none of the allowed hosts.
	KindHost = "host"
	// KindOrigin: the Origin header is present and not an allowed origin.
	KindOrigin = "origin"
	// KindContentType: a POST whose Content-Type is not application/json.
	KindContentType = "content-type"
)

// Refusal says why a request may not reach a listener.
type Refusal struct {
	// Kind is KindHost, KindOrigin or KindContentType.
	Kind string
	// Status is the HTTP status the request gets: 403, or 415 for
	// KindContentType.
	Status int
	// Reason is one line naming the header and its value, quoted.
	Reason string
}

// Write answers the request with the refusal's status and a plain-text
// line saying what was refused.
func (r *Refusal) Write(w http.ResponseWriter) {
	http.Error(w, "mcptrail: "+r.Reason, r.Status)
}

// Options configures a Policy.
type Options struct {
	// Hosts lists the Host header values accepted: "host:port", or "host"
	// for any port, case-insensitive (ListenerHosts gives a listener's
	// own). Empty accepts any Host.
	Hosts []string
	// Origins lists the browser origins accepted besides loopback ones
	// and the listener's own ("scheme://host[:port]", case-insensitive; a
	// missing port is the scheme's default). Empty accepts those only.
	Origins []string
}

// Policy is the request policy of one listener.
type Policy struct {
	// hosts is Options.Hosts in lower case; nil accepts any Host.
	hosts map[string]bool
	// origins is Options.Origins as canonicalOrigin spells them.
	origins map[string]bool
}

// New returns the policy opts describes; nil opts accepts any Host and
// loopback origins only. An entry of Options.Origins that is no origin is
// an error.
func New(opts *Options) (*Policy, error) {
	p := &Policy{origins: map[string]bool{}}
	if opts == nil {
		return p, nil
	}
	if len(opts.Hosts) > 0 {
		p.hosts = make(map[string]bool, len(opts.Hosts))
		for _, h := range opts.Hosts {
			p.hosts[strings.ToLower(strings.TrimSpace(h))] = true
		}
	}
	for _, o := range opts.Origins {
		c, ok := canonicalOrigin(strings.TrimSpace(o))
		if !ok {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port]", o)
		}
		p.origins[c] = true
	}
	return p, nil
}

// CheckOrigins reports the first entry of an Options.Origins list that
// names no origin, as New would.
func CheckOrigins(list []string) error {
	_, err := New(&Options{Origins: list})
	return err
}

// Check returns why r may not reach the listener (its Host, then its
// Origin), or nil when it may. A nil Policy admits every request.
func (p *Policy) Check(r *http.Request) *Refusal {
	if p == nil {
		return nil
	}
	if !p.hostOK(r.Host) {
		return &Refusal{Kind: KindHost, Status: http.StatusForbidden,
			Reason: fmt.Sprintf("Host %q is not an allowed host", r.Host)}
	}
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return nil
	}
	if len(origins) > 1 || !p.originOK(origins[0], r.Host) {
		return &Refusal{Kind: KindOrigin, Status: http.StatusForbidden,
			Reason: fmt.Sprintf("Origin %q is not an allowed origin (--allow-origin)", strings.Join(origins, ", "))}
	}
	return nil
}

// CheckJSON returns why a POST to an MCP endpoint may not go on: its
// Content-Type is missing or is not application/json (parameters such as
// charset aside). Any other method passes.
func CheckJSON(r *http.Request) *Refusal {
	if r.Method != http.MethodPost {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	media, _, _ := strings.Cut(ct, ";")
	if strings.EqualFold(strings.TrimSpace(media), "application/json") {
		return nil
	}
	return &Refusal{Kind: KindContentType, Status: http.StatusUnsupportedMediaType,
		Reason: fmt.Sprintf("Content-Type %q is not application/json", ct)}
}

// Handler returns h behind the policy: a request Check refuses gets its
// refusal, and with json a POST CheckJSON refuses gets its own.
func (p *Policy) Handler(h http.Handler, json bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ref := p.Check(r)
		if ref == nil && json {
			ref = CheckJSON(r)
		}
		if ref != nil {
			ref.Write(w)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostOK reports whether a Host header names an allowed host.
func (p *Policy) hostOK(host string) bool {
	if p.hosts == nil {
		return true
	}
	host = strings.ToLower(host)
	if p.hosts[host] {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		return p.hosts[h]
	}
	return false
}

// originOK reports whether an Origin header value is allowed for a
// request whose Host is host (already checked): a loopback origin, a
// listed one, or, when the policy names its hosts, the listener itself.
func (p *Policy) originOK(origin, host string) bool {
	c, ok := canonicalOrigin(origin)
	if !ok {
		return false // "null" (a sandboxed or file page), or garbage
	}
	if p.origins[c] {
		return true
	}
	u, _ := url.Parse(c)
	if loopback(u.Hostname()) {
		return true
	}
	if p.hosts == nil {
		return false // any Host passes, so the Host proves nothing
	}
	return u.Host == withPort(u.Scheme, strings.ToLower(host))
}

// canonicalOrigin spells an origin "scheme://host:port" in lower case,
// with the scheme's default port when it has none; ok is false when s is
// no origin (a path, user info, a query, or "null").
func canonicalOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.ToLower(s))
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		strings.Trim(u.Path, "/") != "" || u.Opaque != "" {
		return "", false
	}
	hp := withPort(u.Scheme, u.Host)
	if _, _, err := net.SplitHostPort(hp); err != nil {
		return "", false
	}
	return u.Scheme + "://" + hp, true
}

// withPort adds a scheme's default port to a host without one (80 for
// http and ws, 443 for any other scheme).
func withPort(scheme, host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := "443"
	if scheme == "http" || scheme == "ws" {
		port = "80"
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), port)
}

// loopback reports whether a host name is localhost or a loopback IP.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
