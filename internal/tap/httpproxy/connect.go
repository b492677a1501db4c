package httpproxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// connectOK is the answer to a CONNECT mcptrail accepted.
const connectOK = "HTTP/1.1 200 Connection established\r\n\r\n"

// connect serves a CONNECT: refused (403, an exchange record) for an
// origin outside the allowed ones; intercepted when ForwardOptions.Intercept
// selects its host; tunnelled blind (a tunnel record) otherwise.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request) {
	start := p.q.now()
	target := r.Host
	if _, _, err := net.SplitHostPort(target); err != nil {
		http.Error(w, "mcptrail: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	ex := p.newExchange(r)
	ex.url = target
	ex.xs = &xstate{mode: modeExchange, start: start, url: target, reqHeaders: requestHeaders(r.Header)}
	if !p.fwd.origins.allows("", target) {
		ex.refuse(w)
		return
	}
	host, _, _ := net.SplitHostPort(target)
	if p.fwd.intercept != nil {
		cfg, err := p.fwd.intercept(host)
		if err != nil {
			ex.status, ex.xs.err = http.StatusBadGateway, fmt.Sprintf("intercepting %s: %v", host, err)
			http.Error(w, "mcptrail: cannot intercept "+host, http.StatusBadGateway)
			ex.recordExchange()
			return
		}
		if cfg != nil {
			p.intercept(w, r, ex, cfg)
			return
		}
	}
	p.tunnel(w, r, ex)
}

// tunnel relays a CONNECT blind and records it as a tunnel.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request, ex *exchange) {
	up, err := p.fwd.dialer.DialContext(r.Context(), "tcp", ex.url)
	if err != nil {
		ex.status, ex.xs.err = http.StatusBadGateway, err.Error()
		http.Error(w, "mcptrail: cannot reach "+ex.url, http.StatusBadGateway)
		p.recordTunnel(ex, 0, 0)
		return
	}
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = up.Close()
		ex.status, ex.xs.err = http.StatusNotImplemented, "cannot take over the connection: "+err.Error()
		http.Error(w, "mcptrail: CONNECT needs HTTP/1.1", http.StatusNotImplemented)
		p.recordTunnel(ex, 0, 0)
		return
	}
	ex.status = http.StatusOK
	if _, err := io.WriteString(client, connectOK); err != nil {
		ex.xs.err = err.Error()
	}
	// Cancelling the request (mcptrail stopping) closes both ends.
	stop := context.AfterFunc(r.Context(), func() { _ = client.Close(); _ = up.Close() })
	defer stop()
	in, plain := sniffHTTP(hijacked(client, brw))
	if plain {
		// A client that sends plain HTTP through CONNECT (undici does for
		// http:// origins) is served as the forward proxy serves it.
		_ = up.Close()
		p.serveTunnel(r, ex.url, in, "http", false)
		return
	}
	var wg sync.WaitGroup
	var upN, downN atomic.Int64
	wg.Add(2)
	go func() { defer wg.Done(); upN.Store(relay(up, in, client)) }()
	go func() { defer wg.Done(); downN.Store(relay(client, up, up)) }()
	wg.Wait()
	_ = client.Close()
	_ = up.Close()
	p.recordTunnel(ex, upN.Load(), downN.Load())
}

// relay copies src (read from the connection srcConn) to dst and returns
// the bytes copied. A clean end half-closes dst, so the other direction
// runs on; a failure on either side closes both connections, so it ends
// too.
func relay(dst net.Conn, src io.Reader, srcConn net.Conn) int64 {
	n, err := io.Copy(dst, src)
	cw, ok := dst.(interface{ CloseWrite() error })
	if err != nil || !ok {
		_ = dst.Close()
		_ = srcConn.Close()
		return n
	}
	_ = cw.CloseWrite()
	return n
}

// recordTunnel writes a CONNECT's tunnel record.
func (p *Proxy) recordTunnel(ex *exchange, up, down int64) {
	if p.q.off {
		return
	}
	xs := ex.xs
	x := &capture.Exchange{ID: ex.id, Method: http.MethodConnect, URL: xs.url, Status: ex.status,
		DurationUS: p.q.now().Sub(xs.start).Microseconds(), ReqHeaders: xs.reqHeaders,
		Error: xs.err, BytesUp: up, BytesDown: down}
	s := p.q.reserveSeq(capture.TypeTunnel)
	p.q.fill(s, func(r *capture.Record) { r.Time, r.Exchange = xs.start, x })
}

// intercept terminates the tunnel's TLS with cfg and serves the requests
// inside it as https exchanges of the forward proxy.
func (p *Proxy) intercept(w http.ResponseWriter, r *http.Request, ex *exchange, cfg *tls.Config) {
	target := ex.url
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "mcptrail: CONNECT needs HTTP/1.1", http.StatusNotImplemented)
		return
	}
	if _, err := io.WriteString(client, connectOK); err != nil {
		_ = client.Close()
		return
	}
	in, plain := sniffHTTP(hijacked(client, brw))
	if plain {
		p.serveTunnel(r, target, in, "http", false)
		return
	}
	cfg = cfg.Clone()
	cfg.NextProtos = []string{"http/1.1"} // the inner server speaks HTTP/1.1
	tc := tls.Server(in, cfg)
	hctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	err = tc.HandshakeContext(hctx)
	cancel()
	if err != nil {
		ex.note(NoteInterceptFailed, fmt.Sprintf("TLS handshake with the client for %s failed (does the client trust mcptrail's CA?): %v", target, err))
		_ = tc.Close()
		return
	}
	p.serveTunnel(r, target, tc, "https", true)
}

// serveTunnel serves the HTTP/1.1 requests a client sends inside a
// CONNECT tunnel to target (decrypted, or plain HTTP) as exchanges of the
// forward proxy, until the tunnel closes or the CONNECT is cancelled.
func (p *Proxy) serveTunnel(r *http.Request, target string, c net.Conn, scheme string, intercepted bool) {
	conn := newOneConn(c)
	// The handlers still running once the tunnel closed are waited for,
	// so their records are in before the capture ends.
	var (
		mu      sync.Mutex
		stopped bool
		inner   sync.WaitGroup
	)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, ir *http.Request) {
			mu.Lock()
			if stopped {
				mu.Unlock()
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			inner.Add(1)
			mu.Unlock()
			defer inner.Done()
			ir.URL.Scheme, ir.URL.Host = scheme, target
			p.forwardExchange(w, ir, intercepted)
		}),
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       p.fwd.idle, // an idle keep-alive would hold the tunnel open for ever
		BaseContext:       func(net.Listener) context.Context { return r.Context() },
		ErrorLog:          discardLog(),
	}
	go func() { _ = srv.Serve(conn) }()
	select {
	case <-conn.closed:
	case <-r.Context().Done():
	}
	_ = srv.Close()
	mu.Lock()
	stopped = true
	mu.Unlock()
	inner.Wait()
}

// sniffWait is how long a tunnel waits for the client's first byte to
// tell plain HTTP from anything else; a protocol whose server speaks
// first is relayed blind after it.
const sniffWait = time.Second

// sniffHTTP reads, without consuming it, the first byte the client sends
// into a tunnel and reports whether it starts an HTTP/1 request line (a
// method is an upper-case token; a TLS record starts with 0x16). The
// returned connection reads that byte again.
func sniffHTTP(c net.Conn) (net.Conn, bool) {
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(sniffWait))
	b, err := br.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	out := &prefixConn{Conn: c, r: br}
	return out, err == nil && b[0] >= 'A' && b[0] <= 'Z'
}

// discardLog is a logger that says nothing: errors become capture notes.
func discardLog() *log.Logger { return log.New(io.Discard, "", 0) }

// hijacked returns a hijacked connection with the bytes the server's
// buffer holds of it (what the client sent right after its CONNECT) in
// front. It never reads through the server's buffer: an error read there
// (a deadline the inner server sets) would cancel the CONNECT's context.
func hijacked(c net.Conn, brw *bufio.ReadWriter) net.Conn {
	n := brw.Reader.Buffered()
	if n == 0 {
		return c
	}
	b, _ := brw.Reader.Peek(n)
	return &prefixConn{Conn: c, r: io.MultiReader(bytes.NewReader(bytes.Clone(b)), c)}
}

// prefixConn is a connection whose reads start with bytes already read.
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// oneConn is a net.Listener that hands out one connection, then waits
// until that connection is closed.
type oneConn struct {
	conn   net.Conn
	take   chan net.Conn
	closed chan struct{}
	shut   sync.Once
}

func newOneConn(c net.Conn) *oneConn {
	l := &oneConn{take: make(chan net.Conn, 1), closed: make(chan struct{})}
	l.conn = &closeNotify{Conn: c, l: l}
	l.take <- l.conn
	return l
}

func (l *oneConn) Accept() (net.Conn, error) {
	select {
	case c := <-l.take:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// Close stops Accept; the connection is closed by the server.
func (l *oneConn) Close() error {
	l.shut.Do(func() { close(l.closed) })
	return nil
}

func (l *oneConn) Addr() net.Addr { return l.conn.LocalAddr() }

// closeNotify closes its listener when the connection is closed.
type closeNotify struct {
	net.Conn
	l *oneConn
}

func (c *closeNotify) Close() error {
	err := c.Conn.Close()
	_ = c.l.Close()
	return err
}
