package httpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
	"github.com/mcptrail/mcptrail/internal/tap/record"
)

// Note kinds the HTTP tap writes (capture.Record.Note), besides the
// capture's own.
const (
	// NoteHostRejected: a request whose Host header names none of the
	// allowed hosts was refused with 403 (DNS-rebinding protection). It
	// never reached the target.
	NoteHostRejected = "host-rejected"
	// NoteOriginRejected: a request whose Origin header names neither a
	// loopback origin, the listener itself nor an allowed origin (a web
	// page's cross-site request) was refused with 403. It never reached
	// the target.
	NoteOriginRejected = "origin-rejected"
	// NoteContentTypeRejected: a POST to the MCP endpoint whose
	// Content-Type was not application/json (a web page's "simple"
	// text/plain POST, say) was refused with 415. It never reached the
	// target.
	NoteContentTypeRejected = "content-type-rejected"
	// NoteUpstreamError: the target could not be reached or failed
	// mid-response; the client got a 502 when nothing was sent yet.
	NoteUpstreamError = "upstream-error"
	// NoteStreamAborted: a request or response body ended early (the
	// client went away mid-stream, the target closed the connection).
	NoteStreamAborted = capture.NoteStreamAborted
	// NoteClientGone: the client went away before the response began.
	NoteClientGone = "client-gone"
	// NoteBodyUnread: the target answered (or failed) without reading the
	// whole request body; the tap read the rest for the capture only.
	NoteBodyUnread = "body-unread"
	// NoteInterceptFailed: the forward proxy could not terminate the TLS
	// of a CONNECT it was told to intercept (the client does not trust
	// mcptrail's CA, most often); the connection was closed.
	NoteInterceptFailed = "intercept-failed"
)

// maxIdlePerHost is how many idle connections to the target the default
// transport keeps.
const maxIdlePerHost = 64

// ErrNoTarget is returned by New when Options.Target is missing.
var ErrNoTarget = errors.New("no target URL")

// Options configures a Proxy.
type Options struct {
	// Target is the upstream MCP endpoint (http or https URL); required.
	Target *url.URL
	// Capture receives the capture records; nil means no capture.
	Capture io.Writer
	// Feed, when not nil, is handed every record the capture gets, in
	// capture order, as the capture goroutine writes it (live consumers);
	// with a nil Capture the records go to the Feed only. Nil means none.
	Feed *feed.Feed
	// SpoolDir is where a body larger than capture.SpoolAbove waits, in a
	// temporary file, for its record; empty means the system's temporary
	// directory. Best next to the capture.
	SpoolDir string
	// Header holds the session fields the caller knows (SessionID, Label,
	// ToolVersion); New fills in type, format, transport, target and time.
	Header capture.Record
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Transport sends requests upstream; nil means a clone of
	// http.DefaultTransport keeping up to 64 idle connections.
	Transport http.RoundTripper
	// AllowedHosts lists the Host header values accepted ("host:port" or
	// "host" for any port, case-insensitive). Empty accepts any Host.
	AllowedHosts []string
	// AllowedOrigins lists the browser origins ("scheme://host[:port]")
	// whose requests are relayed besides loopback ones and the listener's
	// own; a request with another Origin gets 403. Empty allows those
	// only. The forward proxy ignores it and AllowedHosts.
	AllowedOrigins []string
	// Redact, when non-nil, rewrites every record on the capture
	// goroutine before it is written; the forwarded bytes are never
	// touched.
	Redact redact.Redactor
	// BeforeEnd, when non-nil, is called once by Close, after the server
	// stopped; the records it returns (notes) are written just before the
	// end record. Nil adds nothing.
	BeforeEnd func() []capture.Record
	// OnFailure, when non-nil, is called once for each exchange the
	// client got an HTTP status of 400 or above for (failure.go), when
	// its handler is done. It is called from the exchange's goroutine, so
	// it must be safe for concurrent use, and quick. Nil reports nothing.
	OnFailure func(Failure)
	// Forward, when not nil, makes the Proxy a forward proxy (forward.go)
	// and Target is ignored; nil means a reverse proxy for Target.
	Forward *ForwardOptions
	// OnHint, when not nil, is called from an exchange's goroutine with a
	// one-line hint for the user, at most once for each thing the reverse
	// proxy can see spec-following OAuth clients will refuse: protected-
	// resource metadata naming a resource that is not its own URL, and a
	// 401 naming absolute resource_metadata on the target's own origin
	// (the client fetches it around the proxy). Nil says nothing.
	OnHint func(string)
	// OnCaptureError, when non-nil, is called once, from the capture
	// goroutine, when a write to Capture first fails (a full disk):
	// recording stops there, relaying goes on, and Close's error and a
	// capture-gap note account for what was lost. It must be quick. Nil
	// says nothing until Close.
	OnCaptureError func(error)
}

// Proxy is a Streamable HTTP reverse proxy that captures every exchange.
// It is an http.Handler; call Close once the server using it has stopped
// handling requests, to end the capture.
type Proxy struct {
	target *url.URL
	q      *queue
	rp     *httputil.ReverseProxy
	// admit is the reverse proxy's request policy (Host, Origin); nil on
	// a forward proxy.
	admit   *admit.Policy
	next    atomic.Uint64
	capture bool
	// beforeEnd is Options.BeforeEnd; onFailure Options.OnFailure.
	beforeEnd func() []capture.Record
	onFailure func(Failure)
	// fwd is set on a forward proxy (Options.Forward); hint is
	// Options.OnHint, each hint said at most once (hintOnce: the
	// metadata's resource; challengeOnce: a 401's resource_metadata).
	fwd           *forward
	hint          func(string)
	hintOnce      sync.Once
	challengeOnce sync.Once

	closeOnce sync.Once
	closeErr  error
}

// New returns a Proxy for opts and, when it captures, starts the capture
// goroutine after writing the session header.
func New(opts *Options) (*Proxy, error) {
	if opts != nil && opts.Forward != nil {
		return newForward(opts)
	}
	if opts == nil || opts.Target == nil || opts.Target.Host == "" {
		return nil, ErrNoTarget
	}
	if s := opts.Target.Scheme; s != "http" && s != "https" {
		return nil, fmt.Errorf("target %s: scheme must be http or https", opts.Target.Redacted())
	}
	policy, err := admit.New(&admit.Options{Hosts: opts.AllowedHosts, Origins: opts.AllowedOrigins})
	if err != nil {
		return nil, err
	}
	p := newProxy(opts)
	p.target, p.admit = opts.Target, policy
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Every request goes to one host: keep as many idle connections
		// to it as clients keep to us, not net/http's default of 2, or
		// concurrent clients churn through new upstream connections.
		t.MaxIdleConnsPerHost = maxIdlePerHost
		tr = t
	}
	p.rp = p.reverseProxy(p.rewrite, tr)
	p.start(opts, opts.Target.Redacted())
	return p, nil
}

// newProxy returns a Proxy with the fields both kinds share.
func newProxy(opts *Options) *Proxy {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	p := &Proxy{q: newQueue(now), capture: opts.Capture != nil || opts.Feed != nil,
		beforeEnd: opts.BeforeEnd, onFailure: opts.OnFailure, hint: opts.OnHint}
	p.q.off, p.q.spoolDir = !p.capture, opts.SpoolDir
	return p
}

// reverseProxy returns the relay that taps every exchange.
func (p *Proxy) reverseProxy(rewrite func(*httputil.ProxyRequest), tr http.RoundTripper) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite:        rewrite,
		Transport:      tr,
		FlushInterval:  -1,
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		ErrorLog:       discardLog(),
	}
}

// start writes the session header and starts the capture goroutine, when
// the proxy captures.
func (p *Proxy) start(opts *Options, target string) {
	if !p.capture {
		return
	}
	h := opts.Header
	h.Type = capture.TypeSession
	h.Format = capture.FormatVersion
	h.Transport = "http"
	h.Target = target
	h.Time = p.q.now()
	go p.q.run(opts.Capture, &h, &record.Options{Feed: opts.Feed, OnError: opts.OnCaptureError, Redact: opts.Redact})
}

// Close ends the capture: it waits for the queued records and writes the
// end record. Call it after the server stopped (http.Server.Shutdown).
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() {
		if p.capture {
			if p.beforeEnd != nil {
				for _, n := range p.beforeEnd() {
					p.q.fill(p.q.reserve(false), func(r *capture.Record) {
						r.Type, r.Note, r.Text = capture.TypeNote, n.Note, n.Text
					})
				}
			}
			p.closeErr = p.q.close()
		}
	})
	return p.closeErr
}

// Counts returns the frames recorded so far and their bytes.
func (p *Proxy) Counts() (frames, n int64) { return p.q.counts() }

// exchange is one HTTP request and its response.
type exchange struct {
	p      *Proxy
	id     string
	conn   string // the legacy session (Mcp-Session-Id on the request), or ""
	method string
	path   string
	url    string // the absolute URL (forward proxy), else ""
	// xs is set on an exchange that may not be MCP (classify.go); nil on
	// the reverse proxy's MCP endpoint, where everything is.
	xs  *xstate
	req *bodyTap // nil when the request had no body
	// status is the status the client got (0 until the answer began);
	// upstreamErr, why the target failed when mcptrail answered 502.
	// Only the exchange's handler goroutine sets and reads them.
	status      int
	upstreamErr string
	// ctx is the client's request context: done when the client went
	// away, or when mcptrail stops (its cause is then ErrStopping).
	ctx context.Context
}

// ErrStopping is the cause the HTTP server cancels its requests' base
// context with when mcptrail stops, so that a stream cut by the stop is
// told apart from one the client closed (clientGone).
var ErrStopping = errors.New("mcptrail is stopping")

// clientGone reports whether the client closed the exchange: its request
// context is done, and not because mcptrail is stopping. On Streamable
// HTTP in 2026-07-28, a client that closes a request's response stream
// cancels that request.
func (ex *exchange) clientGone() bool {
	if ex.ctx == nil || ex.ctx.Err() == nil {
		return false
	}
	return !errors.Is(context.Cause(ex.ctx), ErrStopping)
}

type exchangeKey struct{}

// ServeHTTP proxies one exchange and records it.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.fwd != nil {
		p.serveForward(w, r)
		return
	}
	ex := p.newExchange(r)
	if ref := p.refusal(r); ref != nil {
		p.refuse(w, r, ex, ref)
		return
	}
	if !p.isEndpoint(r.URL.Path) {
		ex.xs = newXstate(r, p.q.now(), redact.CredentialURL(p.targetURL(r.URL)))
		ex.xs.onDocument = p.documentCheck(r)
	}
	p.serve(w, r, ex, p.rp)
}

// newExchange returns the exchange of a request, with the next id.
func (p *Proxy) newExchange(r *http.Request) *exchange {
	return &exchange{
		p: p, id: "x" + strconv.FormatUint(p.next.Add(1), 10),
		conn: r.Header.Get(mcp.HeaderSessionID), method: r.Method, path: r.URL.Path,
		ctx: r.Context(),
	}
}

// hasBody reports whether a request comes with a body.
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// serve relays one exchange through rp, tapping its bodies.
func (p *Proxy) serve(w http.ResponseWriter, r *http.Request, ex *exchange, rp http.Handler) {
	env := ex.envelope(0, requestHeaders(r.Header))
	if !hasBody(r) {
		if ex.xs == nil || ex.xs.mode == modeMCP {
			p.record(ex.frame(capture.C2S, env, nil))
		}
	} else {
		ex.req = &bodyTap{rc: r.Body, p: p, ex: ex, dir: capture.C2S, env: env}
		r.Body = ex.req
		fullDuplex(w, r)
	}
	r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex))
	// Deferred first, so they run once the request body was drained and
	// even when ReverseProxy panics to abort a broken response.
	if ex.xs != nil {
		defer ex.recordExchange()
	}
	defer p.reportFailure(ex, r.Header)
	if ex.req != nil {
		defer finishRequest(r.Context(), w, ex.req)
	}
	rp.ServeHTTP(w, r)
}

// record reserves and fills one frame at once.
func (p *Proxy) record(set func(*capture.Record)) {
	p.q.fill(p.q.reserve(true), set)
}

// refusal returns why a request may not reach the target (its Host,
// its Origin, or, on the MCP endpoint, a POST's Content-Type), or nil.
func (p *Proxy) refusal(r *http.Request) *admit.Refusal {
	if ref := p.admit.Check(r); ref != nil {
		return ref
	}
	if p.isEndpoint(r.URL.Path) {
		return admit.CheckJSON(r)
	}
	return nil
}

// refuse answers a refused request, notes it in the capture and reports
// it as a failure; it never reaches the target.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, ex *exchange, ref *admit.Refusal) {
	kind := NoteHostRejected
	switch ref.Kind {
	case admit.KindOrigin:
		kind = NoteOriginRejected
	case admit.KindContentType:
		kind = NoteContentTypeRejected
	}
	ex.note(kind, fmt.Sprintf("refused with %d: %s", ref.Status, ref.Reason))
	ref.Write(w)
	if p.onFailure != nil {
		p.onFailure(Failure{Status: ref.Status, Method: r.Method, Path: r.URL.Path,
			RPCMethod: r.Header.Get(mcp.HeaderMethod), Refused: ref.Reason})
	}
}

// rewrite points the request at the target. The target's path is the MCP
// endpoint: a request for "/" or for that path goes to it, with the
// target's query before the request's own; any other path (OAuth metadata
// under /.well-known, say) is kept, with only the request's query, so a
// credential in the target's query reaches the endpoint alone. Origin and
// every other header pass unchanged; no X-Forwarded-* headers are added.
func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	out := pr.Out
	t := p.target
	out.URL.Scheme, out.URL.Host = t.Scheme, t.Host
	endpoint := p.isEndpoint(pr.In.URL.Path)
	if t.Path != "" && t.Path != "/" && endpoint {
		out.URL.Path, out.URL.RawPath = t.Path, t.RawPath
	}
	if t.RawQuery != "" && endpoint {
		if out.URL.RawQuery == "" {
			out.URL.RawQuery = t.RawQuery
		} else {
			out.URL.RawQuery = t.RawQuery + "&" + out.URL.RawQuery
		}
	}
	out.Host = ""
}

// isEndpoint reports whether a request path names the MCP endpoint: "/"
// or the target's path.
func (p *Proxy) isEndpoint(path string) bool {
	return path == "/" || path == p.target.Path
}

func exchangeOf(r *http.Request) *exchange {
	ex, _ := r.Context().Value(exchangeKey{}).(*exchange)
	return ex
}

// envelope returns the exchange's HTTP envelope with a status and headers.
func (ex *exchange) envelope(status int, headers map[string]string) *capture.HTTP {
	return &capture.HTTP{Exchange: ex.id, Method: ex.method, Path: ex.path, Status: status, Headers: headers, URL: ex.url}
}

// frame returns the setter of a frame record for data (copied).
func (ex *exchange) frame(dir capture.Dir, env *capture.HTTP, data []byte) func(*capture.Record) {
	return ex.rawFrame(dir, env, string(data))
}

// rawFrame is frame for data already copied into raw.
func (ex *exchange) rawFrame(dir capture.Dir, env *capture.HTTP, raw string) func(*capture.Record) {
	return func(r *capture.Record) {
		r.Dir, r.Conn, r.HTTP, r.Raw, r.Size = dir, ex.conn, env, raw, len(raw)
	}
}

// note queues a note about the exchange; its envelope names the exchange.
func (ex *exchange) note(kind, text string) {
	ex.noteBy(kind, text, "")
}

// noteBy is note with Record.StoppedBy set to by.
func (ex *exchange) noteBy(kind, text, by string) {
	s := ex.p.q.reserve(false)
	ex.p.q.fill(s, func(r *capture.Record) {
		r.Type, r.Note, r.Text, r.Conn, r.StoppedBy = capture.TypeNote, kind, text, ex.conn, by
		r.HTTP = &capture.HTTP{Exchange: ex.id, Method: ex.method, Path: ex.path, URL: ex.url}
	})
}

// streamAborted notes a response stream that ended early, saying so when
// the client closed it (StoppedBy StopClient).
func (ex *exchange) streamAborted(text string) {
	by := ""
	if ex.clientGone() {
		by = capture.StopClient
		text += " (the client closed it)"
	}
	ex.noteBy(NoteStreamAborted, text, by)
}
