package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/events/prom"
)

// metricsFlags are the taps' Prometheus flags.
type metricsFlags struct {
	listen      string
	allowRemote bool
	allowHost   []string
}

func (m *metricsFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&m.listen, "metrics-listen", "", "serve Prometheus metrics at http://`ADDR`/metrics (host:port, a loopback host unless --metrics-allow-remote; port 0 picks one)")
	fs.BoolVar(&m.allowRemote, "metrics-allow-remote", false, "let --metrics-listen use an address other machines can reach (the metrics name your tools, clients and session label)")
	fs.StringSliceVar(&m.allowHost, "metrics-allow-host", nil, "also serve /metrics to requests whose Host is `HOST[:PORT]`, the name a scraper uses (repeatable)")
}

func (m *metricsFlags) enabled() bool { return m.listen != "" }

// metricsServer serves a prom.Sink's registry on its own listener.
type metricsServer struct {
	sink *prom.Sink
	srv  *http.Server
	done chan error
}

// serve checks --metrics-listen, listens and starts serving /metrics,
// printing the address on ios.ErrOut; nil when the flag is not given.
func (m *metricsFlags) serve(ios *IOStreams) (*metricsServer, error) {
	if !m.enabled() {
		return nil, nil
	}
	if err := checkMetricsAddr(m.listen, m.allowRemote); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", m.listen)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			return nil, usagef("--metrics-listen %q: %s", m.listen, ae.Err)
		}
		return nil, fmt.Errorf("listening for metrics on %s: %w", m.listen, err)
	}
	s := &metricsServer{sink: prom.New(nil), done: make(chan error, 1)}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.sink.Handler())
	// A DNS-rebinding page would read the metrics as its own origin's.
	policy, _ := admit.New(&admit.Options{Hosts: admit.ListenerHosts(ln.Addr(), m.allowHost)}) // no origins: cannot fail
	s.srv = newServer(policy.Handler(mux, false), serverIdle)
	go func() { s.done <- s.srv.Serve(ln) }()
	fmt.Fprintf(ios.ErrOut, "mcptrail: metrics on http://%s/metrics\n", ln.Addr())
	return s, nil
}

// checkMetricsAddr refuses a host other machines could reach (an empty
// host means every interface) unless allowed: Prometheus exporters
// usually listen everywhere, but these metrics name tools, clients and
// the session label, so reaching them from elsewhere is a choice to make.
func checkMetricsAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--metrics-listen %q: want host:port", addr)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return usagef("--metrics-listen %q is not a loopback address (127.0.0.1, [::1], localhost); the metrics name your tools, clients and session label: add --metrics-allow-remote to serve them there", addr)
}

// close stops serving.
func (s *metricsServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	<-s.done
}
