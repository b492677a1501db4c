package replay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"sync"

	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
)

// HTTP replays p against the Streamable HTTP server at opts.Target through
// the HTTP tap, served in this process on a loopback port of its own, so
// the tap writes the new capture as `mcptrail http --target` would. Every
// message is a POST to the tap (httpConn); a legacy session is DELETEd at
// the end. HTTP returns once the tap's listener, its exchanges and every
// goroutine it started are gone. The errors are Stdio's; a server that
// cannot be reached ends the replay with an error wrapping ErrServerGone
// that says why. A nil Result means the tap could not start.
func HTTP(ctx context.Context, p *Plan, opts *Options) (*Result, error) {
	if opts == nil || opts.Target == nil {
		return nil, httpproxy.ErrNoTarget
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the HTTP tap: %w", err)
	}
	up := &upstream{rt: http.DefaultTransport.(*http.Transport).Clone()}
	prx, err := httpproxy.New(&httpproxy.Options{
		Target: opts.Target, Capture: opts.Capture, SpoolDir: opts.SpoolDir,
		Header: opts.Header, Now: opts.Now, Transport: up,
		AllowedHosts: []string{ln.Addr().String()},
	})
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	srv := &http.Server{Handler: prx, ReadHeaderTimeout: timeout}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableCompression: true}}
	path := opts.Target.EscapedPath()
	if path == "" {
		path = "/"
	}
	c := newHTTPConn(ctx, "http://"+ln.Addr().String()+path, client, up.cause)
	c.extra = opts.RequestHeader
	c.tools = maps.Clone(p.bindings)
	d := &driver{c: c, timeout: timeout}
	driveErr := d.run(p)
	c.close(timeout)
	shut, cancel := context.WithTimeout(context.Background(), timeout)
	if err := srv.Shutdown(shut); err != nil {
		_ = srv.Close()
	}
	cancel()
	<-served
	up.rt.CloseIdleConnections()
	capErr := prx.Close()
	if driveErr != nil {
		return &d.res, driveErr
	}
	if capErr != nil {
		return &d.res, fmt.Errorf("writing the new capture: %w", capErr)
	}
	return &d.res, nil
}

// upstream is the tap's transport to the target; it keeps why the target
// last could not be reached, which the tap answers with a bare 502.
type upstream struct {
	rt *http.Transport
	mu sync.Mutex
	// err is the last round trip's error, "" after one that worked.
	err string
}

func (u *upstream) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := u.rt.RoundTrip(r)
	u.mu.Lock()
	defer u.mu.Unlock()
	u.err = ""
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) {
			u.err = fmt.Sprintf("%s %s: %v", op.Op, op.Addr, op.Err)
		} else {
			u.err = err.Error()
		}
	}
	return resp, err
}

func (u *upstream) cause() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.err
}
