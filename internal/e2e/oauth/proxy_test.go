package oauth_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestClientsUseProxy: each client's proxy setting — undici's
// EnvHttpProxyAgent for the SDKs, `mcp-remote --enable-proxy` with
// HTTP(S)_PROXY — sends every request of the flow through a forward proxy
// (a minimal one here: absolute-form requests and blind CONNECT), so the
// README's set-up works before mcptrail's own forward proxy is there.
func TestClientsUseProxy(t *testing.T) {
	dir := scripts(t)
	for _, tls := range []bool{false, true} {
		for _, c := range clients() {
			name := c.name + "/http"
			if tls {
				name = c.name + "/https-connect"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				srv, r := newServer(t, tls)
				p := newLogProxy(t)
				r.proxy = p.url
				got := c.run(t, dir, srv.URL(), r)
				checkFlow(t, srv, got)
				seen := p.seen()
				for _, want := range []string{srv.ResourceOrigin(), srv.AuthOrigin()} {
					host := strings.TrimPrefix(strings.TrimPrefix(want, "http://"), "https://")
					if !strings.Contains(seen, host) {
						t.Errorf("no request to %s went through the proxy; it saw:\n%s", want, seen)
					}
				}
			})
		}
	}
}

// logProxy is a minimal forward proxy that logs each request line.
type logProxy struct {
	url string
	mu  sync.Mutex
	log []string
}

func newLogProxy(t *testing.T) *logProxy {
	p := &logProxy{}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	p.url = s.URL
	return p
}

// seen returns the logged request lines, one a line.
func (p *logProxy) seen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

func (p *logProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.log = append(p.log, r.Method+" "+r.RequestURI)
	p.mu.Unlock()
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "not a proxy request", http.StatusBadRequest)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Header.Del("Proxy-Connection")
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n])
			_ = rc.Flush() // SSE events go out at once
		}
		if err != nil {
			return
		}
	}
}

// tunnel relays a CONNECT tunnel blind.
func (p *logProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := net.DialTimeout("tcp", r.Host, 10*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	go func() {
		if n := rw.Reader.Buffered(); n > 0 {
			b, _ := rw.Reader.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, conn)
		up.Close()
	}()
	_, _ = io.Copy(conn, up)
	conn.Close()
}
