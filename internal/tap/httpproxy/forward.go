package httpproxy

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// ForwardOptions makes a Proxy an HTTP forward proxy: absolute-form
// requests ("GET http://host/path") go to the origin they name, CONNECT
// is tunnelled (connect.go). Every exchange is captured: MCP ones as
// frames with HTTP.URL set, any other (OAuth discovery, registration,
// token requests) as one capture.TypeExchange record; a blind tunnel as a
// capture.TypeTunnel record.
type ForwardOptions struct {
	// Intercept, when not nil, is asked for the host (without port) of
	// each CONNECT and returns the TLS configuration mcptrail terminates
	// the tunnel's TLS with, to see and forward the requests inside it;
	// (nil, nil) tunnels it blind, an error refuses it with 502. Nil
	// tunnels every CONNECT blind.
	Intercept func(host string) (*tls.Config, error)
	// AllowOrigins, when not empty, lists the origins requests may go to
	// ("https://host[:port]", "http://host[:port]", or "host:port" for
	// either scheme); a request or CONNECT for another gets 403 from
	// mcptrail and an exchange record with Refused set. Empty allows
	// every origin.
	AllowOrigins []string
	// RootCAs verifies the certificates of https origins; nil means the
	// system's roots. Options.Transport, when set, is used as is.
	RootCAs *x509.CertPool
	// TunnelIdle is how long a tunnel whose requests mcptrail serves
	// (intercepted, or plain HTTP inside a CONNECT) may carry no request
	// before mcptrail closes it; zero means two minutes.
	TunnelIdle time.Duration
}

// defaultTunnelIdle is ForwardOptions.TunnelIdle's zero value.
const defaultTunnelIdle = 2 * time.Minute

// forward is a forward proxy's state.
type forward struct {
	intercept func(host string) (*tls.Config, error)
	origins   *originSet
	rootCAs   *x509.CertPool
	// dialer dials a blind tunnel's origin.
	dialer net.Dialer
	// idle is ForwardOptions.TunnelIdle, never zero.
	idle time.Duration
}

// refusedOrigin is an exchange record's Refused for an origin outside
// ForwardOptions.AllowOrigins.
const refusedOrigin = "origin not allowed"

// newForward is New for a forward proxy.
func newForward(opts *Options) (*Proxy, error) {
	fo := opts.Forward
	origins, err := newOriginSet(fo.AllowOrigins)
	if err != nil {
		return nil, err
	}
	p := newProxy(opts)
	p.fwd = &forward{intercept: fo.Intercept, origins: origins, rootCAs: fo.RootCAs,
		dialer: net.Dialer{Timeout: 30 * time.Second}, idle: fo.TunnelIdle}
	if p.fwd.idle <= 0 {
		p.fwd.idle = defaultTunnelIdle
	}
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Never through another proxy: HTTPS_PROXY in mcptrail's own
		// environment may well name mcptrail.
		t.Proxy = nil
		t.MaxIdleConnsPerHost = maxIdlePerHost
		t.TLSClientConfig = &tls.Config{RootCAs: fo.RootCAs, MinVersion: tls.VersionTLS12}
		tr = t
	}
	p.rp = p.reverseProxy(rewriteForward, tr)
	p.start(opts, "")
	return p, nil
}

// rewriteForward sends the request to the origin its absolute URL names,
// with its Host header; no X-Forwarded-* headers are added.
func rewriteForward(pr *httputil.ProxyRequest) {
	pr.Out.Host = pr.In.Host
}

// serveForward serves one request to the forward proxy.
func (p *Proxy) serveForward(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		p.connect(w, r)
	case r.URL.Scheme != "http" && r.URL.Scheme != "https" || r.URL.Host == "":
		// An origin-form request is for mcptrail itself: it serves none.
		http.Error(w, "mcptrail: this is a forward proxy; send absolute-form requests (set HTTP_PROXY/HTTPS_PROXY)", http.StatusBadRequest)
	default:
		p.forwardExchange(w, r, false)
	}
}

// forwardExchange relays a request whose URL is absolute (http, or https
// inside an intercepted tunnel) to its origin and records it.
func (p *Proxy) forwardExchange(w http.ResponseWriter, r *http.Request, intercepted bool) {
	ex := p.newExchange(r)
	ex.url = redact.CredentialURL(r.URL)
	ex.xs = newXstate(r, p.q.now(), ex.url)
	ex.xs.intercepted = intercepted
	if !p.fwd.origins.allows(r.URL.Scheme, r.URL.Host) {
		ex.refuse(w)
		return
	}
	p.serve(w, r, ex, p.rp)
}

// newXstate starts the exchange state of a request that may not be MCP.
func newXstate(r *http.Request, now time.Time, u string) *xstate {
	return &xstate{mode: startMode(r, hasBody(r)), start: now, url: u, reqHeaders: requestHeaders(r.Header)}
}

// refuse answers 403 for an origin outside the allowed ones and records
// the exchange.
func (ex *exchange) refuse(w http.ResponseWriter) {
	ex.xs.mode, ex.xs.refused, ex.status = modeExchange, refusedOrigin, http.StatusForbidden
	http.Error(w, "mcptrail: origin not allowed (--allow-origin)", http.StatusForbidden)
	ex.recordExchange()
}

// answerIsMCP reports whether an exchange's answer is captured as frames:
// its request was MCP, or it had no body and the answer is an event
// stream (its c2s frame is recorded now, before the events).
func (ex *exchange) answerIsMCP(resp *http.Response) bool {
	xs := ex.xs
	if xs.mode == modeMCP {
		return true
	}
	if ex.req != nil || !isEventStream(resp.Header.Get("Content-Type")) {
		return false
	}
	xs.mode = modeMCP
	ex.p.record(ex.frame(capture.C2S, ex.envelope(0, xs.reqHeaders), nil))
	return true
}

// upstreamFailed is errorHandler for an exchange record: the client got
// 502 unless it went away.
func (ex *exchange) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		ex.xs.err = fmt.Sprintf("the client went away before the response: %v", upstreamCause(err))
		return
	}
	ex.status, ex.upstreamErr = http.StatusBadGateway, upstreamCause(err)
	ex.xs.err = ex.upstreamErr
	w.WriteHeader(http.StatusBadGateway)
}

// CheckOrigins reports the first entry of a ForwardOptions.AllowOrigins
// list that names no origin, as New would.
func CheckOrigins(list []string) error {
	_, err := newOriginSet(list)
	return err
}

// originSet is ForwardOptions.AllowOrigins; nil allows every origin.
type originSet struct {
	hostPorts map[string]bool // "scheme://host:port" or "*://host:port", lower case
}

func newOriginSet(list []string) (*originSet, error) {
	if len(list) == 0 {
		return nil, nil
	}
	s := &originSet{hostPorts: map[string]bool{}}
	for _, o := range list {
		o = strings.ToLower(strings.TrimSpace(o))
		scheme, host := "*", o
		if i := strings.Index(o, "://"); i >= 0 {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
				return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port]", o)
			}
			scheme, host = u.Scheme, u.Host
		}
		hp := withPort(scheme, host)
		if _, _, err := net.SplitHostPort(hp); err != nil {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port] or host:port", o)
		}
		s.hostPorts[scheme+"://"+hp] = true
	}
	return s, nil
}

// allows reports whether a request for scheme and host (host[:port]) may
// go on. A CONNECT passes scheme "".
func (s *originSet) allows(scheme, host string) bool {
	if s == nil {
		return true
	}
	hp := withPort(scheme, strings.ToLower(host))
	if s.hostPorts["*://"+hp] {
		return true
	}
	if scheme == "" {
		return s.hostPorts["https://"+hp] || s.hostPorts["http://"+hp]
	}
	return s.hostPorts[scheme+"://"+hp]
}

// withPort adds a scheme's default port to a host without one.
func withPort(scheme, host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := "443"
	if scheme == "http" {
		port = "80"
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), port)
}
