package httpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
)

// Note kinds the HTTP tap writes (capture.Record.Note), besides the
// capture's own.
const (
	// NoteHostRejected: a request whose Host header names none of the
	// allowed hosts was refused with 403 (DNS-rebinding protection). It
	// never reached the target.
	NoteHostRejected = "host-rejected"
	// NoteUpstreamError: the target could not be reached or failed
	// mid-response; the client got a 502 when nothing was sent yet.
	NoteUpstreamError = "upstream-error"
	// NoteStreamAborted: a request or response body ended early (the
	// client went away mid-stream, the target closed the connection).
	NoteStreamAborted = "stream-aborted"
	// NoteClientGone: the client went away before the response began.
	NoteClientGone = "client-gone"
	// NoteBodyUnread: the target answered (or failed) without reading the
	// whole request body; the tap read the rest for the capture only.
	NoteBodyUnread = "body-unread"
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
	// Redact, when non-nil, rewrites every record on the capture
	// goroutine before it is written; the forwarded bytes are never
	// touched.
	Redact Redactor
	// BeforeEnd, when non-nil, is called once by Close, after the server
	// stopped; the records it returns (notes) are written just before the
	// end record. Nil adds nothing.
	BeforeEnd func() []capture.Record
	// OnFailure, when non-nil, is called once for each exchange the
	// client got an HTTP status of 400 or above for (failure.go), when
	// its handler is done. It is called from the exchange's goroutine, so
	// it must be safe for concurrent use, and quick. Nil reports nothing.
	OnFailure func(Failure)
}

// Redactor rewrites capture records before they are written
// (internal/redact implements it). The capture goroutine is its only
// caller, so it may keep per-session state.
type Redactor interface {
	// Record redacts a record in place (a frame's Raw, Text and HTTP
	// envelope; a note's text; the session header) and reports whether
	// it changed it, marking it Redacted then.
	Record(*capture.Record) bool
}

// Proxy is a Streamable HTTP reverse proxy that captures every exchange.
// It is an http.Handler; call Close once the server using it has stopped
// handling requests, to end the capture.
type Proxy struct {
	target  *url.URL
	q       *queue
	rp      *httputil.ReverseProxy
	allowed map[string]bool
	next    atomic.Uint64
	capture bool
	// beforeEnd is Options.BeforeEnd; onFailure Options.OnFailure.
	beforeEnd func() []capture.Record
	onFailure func(Failure)

	closeOnce sync.Once
	closeErr  error
}

// New returns a Proxy for opts and, when it captures, starts the capture
// goroutine after writing the session header.
func New(opts *Options) (*Proxy, error) {
	if opts == nil || opts.Target == nil || opts.Target.Host == "" {
		return nil, ErrNoTarget
	}
	if s := opts.Target.Scheme; s != "http" && s != "https" {
		return nil, fmt.Errorf("target %s: scheme must be http or https", opts.Target.Redacted())
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	p := &Proxy{target: opts.Target, q: newQueue(now), capture: opts.Capture != nil || opts.Feed != nil, beforeEnd: opts.BeforeEnd, onFailure: opts.OnFailure}
	p.q.off, p.q.spoolDir = !p.capture, opts.SpoolDir
	if len(opts.AllowedHosts) > 0 {
		p.allowed = make(map[string]bool, len(opts.AllowedHosts))
		for _, h := range opts.AllowedHosts {
			p.allowed[strings.ToLower(h)] = true
		}
	}
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Every request goes to one host: keep as many idle connections
		// to it as clients keep to us, not net/http's default of 2, or
		// concurrent clients churn through new upstream connections.
		t.MaxIdleConnsPerHost = maxIdlePerHost
		tr = t
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      tr,
		FlushInterval:  -1,
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		// Errors become capture notes; nothing is logged.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	if p.capture {
		h := opts.Header
		h.Type = capture.TypeSession
		h.Format = capture.FormatVersion
		h.Transport = "http"
		h.Target = opts.Target.Redacted()
		h.Time = now()
		go p.q.run(opts.Capture, &h, opts.Redact, opts.Feed)
	}
	return p, nil
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
	req    *bodyTap // nil when the request had no body
	// status is the status the client got (0 until the answer began);
	// upstreamErr, why the target failed when mcptrail answered 502.
	// Only the exchange's handler goroutine sets and reads them.
	status      int
	upstreamErr string
}

type exchangeKey struct{}

// ServeHTTP proxies one exchange and records it.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &exchange{
		p: p, id: "x" + strconv.FormatUint(p.next.Add(1), 10),
		conn: r.Header.Get(mcp.HeaderSessionID), method: r.Method, path: r.URL.Path,
	}
	if !p.hostOK(r.Host) {
		ex.note(NoteHostRejected, fmt.Sprintf("refused with 403: Host %q is not an allowed host", r.Host))
		http.Error(w, "mcptrail: Host not allowed", http.StatusForbidden)
		return
	}
	env := ex.envelope(0, requestHeaders(r.Header))
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		p.record(ex.frame(capture.C2S, env, nil))
	} else {
		ex.req = &bodyTap{rc: r.Body, p: p, ex: ex, dir: capture.C2S, env: env}
		r.Body = ex.req
		fullDuplex(w, r)
	}
	r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex))
	// Deferred first, so it runs once the request body was drained and
	// even when ReverseProxy panics to abort a broken response.
	defer p.reportFailure(ex, r.Header)
	if ex.req != nil {
		defer finishRequest(r.Context(), w, ex.req)
	}
	p.rp.ServeHTTP(w, r)
}

// finishRequest runs the request tap's finishRequest, which may still read
// from the client. When the request's context ends first (the client went
// away, or mcptrail is stopping and cancelled every request) a read
// deadline unblocks that read, so a body that never ends cannot keep the
// handler, and the end of the capture, waiting.
func finishRequest(ctx context.Context, w http.ResponseWriter, b *bodyTap) {
	var (
		mu       sync.Mutex
		returned bool
	)
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		// The ResponseWriter must not be used once the handler returned.
		if !returned {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
		}
	})
	defer func() {
		stop()
		mu.Lock()
		returned = true
		mu.Unlock()
	}()
	b.finishRequest()
}

// fullDuplex lets the request body keep flowing to the target while the
// answer flows back. By default Go's HTTP/1 server, once the response
// starts, reads and closes whatever the handler has not read of the
// request body (golang/go#40747): those bytes never reached the target
// or the capture, and the transport's next read of the body failed, which
// closed the upstream connection an SSE answer was streaming on. HTTP/2
// is always full duplex.
func fullDuplex(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 1 {
		// It fails only for a ResponseWriter that cannot do it; nothing
		// else can be done then.
		_ = http.NewResponseController(w).EnableFullDuplex()
	}
}

// record reserves and fills one frame at once.
func (p *Proxy) record(set func(*capture.Record)) {
	p.q.fill(p.q.reserve(true), set)
}

// hostOK reports whether the Host header names an allowed host.
func (p *Proxy) hostOK(host string) bool {
	if p.allowed == nil {
		return true
	}
	host = strings.ToLower(host)
	if p.allowed[host] {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		return p.allowed[h]
	}
	return false
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
	endpoint := pr.In.URL.Path == "/" || pr.In.URL.Path == t.Path
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

func exchangeOf(r *http.Request) *exchange {
	ex, _ := r.Context().Value(exchangeKey{}).(*exchange)
	return ex
}

// modifyResponse wraps the response body so each message in it is
// recorded as it passes.
func (p *Proxy) modifyResponse(resp *http.Response) error {
	ex := exchangeOf(resp.Request)
	if ex == nil {
		return nil
	}
	if ex.req != nil {
		ex.req.reserve()
	}
	ex.status = resp.StatusCode
	env := ex.envelope(resp.StatusCode, responseHeaders(resp.Header))
	if isEventStream(resp.Header.Get(mcp.HeaderContentType)) {
		resp.Body = &sseTap{rc: resp.Body, p: p, ex: ex, env: env}
	} else {
		resp.Body = &bodyTap{rc: resp.Body, p: p, ex: ex, dir: capture.S2C, env: env}
	}
	return nil
}

func isEventStream(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), mcp.MediaTypeEventStream)
}

// errorHandler answers 502 when the target failed before a response, and
// records it; a client that went away gets a note instead.
func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	ex := exchangeOf(r)
	if ex == nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	if ex.req != nil {
		ex.req.reserve()
	}
	if r.Context().Err() != nil {
		ex.note(NoteClientGone, fmt.Sprintf("the client went away before the response: %v", err))
		return
	}
	ex.status, ex.upstreamErr = http.StatusBadGateway, upstreamCause(err)
	p.record(ex.frame(capture.S2C, ex.envelope(http.StatusBadGateway, nil), nil))
	ex.note(NoteUpstreamError, fmt.Sprintf("answered 502: %v", err))
	w.WriteHeader(http.StatusBadGateway)
}

// envelope returns the exchange's HTTP envelope with a status and headers.
func (ex *exchange) envelope(status int, headers map[string]string) *capture.HTTP {
	return &capture.HTTP{Exchange: ex.id, Method: ex.method, Path: ex.path, Status: status, Headers: headers}
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
	s := ex.p.q.reserve(false)
	ex.p.q.fill(s, func(r *capture.Record) {
		r.Type, r.Note, r.Text, r.Conn = capture.TypeNote, kind, text, ex.conn
		r.HTTP = &capture.HTTP{Exchange: ex.id, Method: ex.method, Path: ex.path}
	})
}
