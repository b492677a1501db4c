package cli

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
	"github.com/mcptrail/mcptrail/internal/tap/mitm"
)

// forwardListen is where `mcptrail http --forward` listens by default.
const forwardListen = "127.0.0.1:8080"

// forwardFlags are the http command's forward-proxy flags.
type forwardFlags struct {
	on           bool
	allowOrigin  []string
	intercept    []string
	interceptAll bool
	allowRemote  bool
}

func (f *forwardFlags) add(fl *pflag.FlagSet) {
	fl.BoolVar(&f.on, "forward", false, "be a forward proxy (HTTPS_PROXY) for every origin the client talks to, instead of a reverse proxy for --target")
	fl.StringSliceVar(&f.allowOrigin, "allow-origin", nil, "also accept browser requests whose Origin is `ORIGIN` (scheme://host[:port]; loopback ones always are); with --forward: only relay to ORIGINs (or host:port; others get 403)")
	fl.StringSliceVar(&f.intercept, "intercept", nil, "with --forward: decrypt CONNECT tunnels to `HOST`s with a leaf of mcptrail's local CA for those hosts alone (see mcptrail ca --intercept)")
	fl.BoolVar(&f.interceptAll, "intercept-all", false, "with --forward: decrypt every CONNECT tunnel (with the CA that may vouch for any host)")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "with --forward: let --listen use an address other machines can reach (an open proxy for whoever reaches it)")
}

// check refuses flag combinations that make no sense with or without
// --forward.
func (f *httpFlags) checkForward(cmd *cobra.Command) error {
	fl := cmd.Flags()
	if !f.fwd.on {
		for _, n := range []string{"intercept", "intercept-all", "allow-remote"} {
			if fl.Changed(n) {
				return usagef("--%s needs --forward", n)
			}
		}
		if err := admit.CheckOrigins(f.fwd.allowOrigin); err != nil {
			return usagef("--allow-origin: %v", err)
		}
		return nil
	}
	if fl.Changed("target") {
		return usagef("--forward and --target cannot be used together: a forward proxy relays to whatever origin the client names")
	}
	if fl.Changed("allow-host") {
		return usagef("--allow-host is for the reverse proxy; with --forward use --allow-origin")
	}
	if err := httpproxy.CheckOrigins(f.fwd.allowOrigin); err != nil {
		return usagef("--allow-origin: %v", err)
	}
	if !fl.Changed("listen") {
		f.listen = forwardListen
	}
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return usagef("--listen %q: want host:port", f.listen)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) && !f.fwd.allowRemote {
		what := "an address other machines can reach"
		if admit.Unspecified(host) {
			what = "every interface"
		}
		return usagef("--forward listens on loopback unless --allow-remote is given (--listen %q is %s): anyone who can reach it can use the proxy", f.listen, what)
	}
	return nil
}

// runForward is `mcptrail http --forward`.
func runForward(cmd *cobra.Command, fac *Factory, f *httpFlags) error {
	io := fac.IOStreams
	red, err := f.settle(cmd.Flags(), fac.Config)
	if err != nil {
		return err
	}
	intercept, err := f.fwd.interceptor(fac)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return listenError(f.listen, err)
	}
	label := f.label
	if label == "" {
		label = "forward"
	}
	start := io.Now()
	id := capture.NewSessionID()
	file, err := openCapture(fac, &f.tapFlags, start, label, id)
	if err != nil {
		_ = ln.Close()
		return err
	}
	opts := &httpproxy.Options{
		Forward:   &httpproxy.ForwardOptions{AllowOrigins: f.fwd.allowOrigin, Intercept: intercept},
		Header:    capture.Record{SessionID: id, Label: label, ToolVersion: Version, PID: os.Getpid()},
		Now:       io.Now,
		OnFailure: (&failureNotices{w: io.ErrOut}).report,
	}
	return serveProxy(cmd, fac, f, ln, file, red, opts, asUsage, func() { forwardReady(io, ln.Addr()) })
}

// forwardReady tells where the forward proxy listens and how to use it.
func forwardReady(io *IOStreams, addr net.Addr) {
	u := "http://" + addr.String()
	// One write: whoever waits for the first line has the second too.
	fmt.Fprintf(io.ErrOut, "mcptrail: forward proxy listening on %s/ (every origin, one capture)\n"+
		"mcptrail: point the client at it: HTTPS_PROXY=%s HTTP_PROXY=%s\n", u, u, u)
}

// interceptor returns ForwardOptions.Intercept for --intercept and
// --intercept-all, opening the local CA; nil when neither is given. The
// CA of --intercept HOSTs is constrained to them (mitm.Dir names its
// folder, the one `mcptrail ca --intercept HOSTs` prints); --intercept-all
// takes the CA without constraints.
func (f *forwardFlags) interceptor(fac *Factory) (func(string) (*tls.Config, error), error) {
	if !f.interceptAll && len(f.intercept) == 0 {
		return nil, nil
	}
	state, err := fac.StateDir()
	if err != nil {
		return nil, err
	}
	var only []string
	if !f.interceptAll {
		only = f.intercept
	}
	ca, err := mitm.Open(mitm.Dir(state, only), &mitm.Options{Hosts: only})
	if err != nil {
		return nil, fmt.Errorf("opening mcptrail's local CA for --intercept: %w", err)
	}
	hosts := make(map[string]bool, len(f.intercept))
	for _, h := range f.intercept {
		hosts[strings.ToLower(strings.TrimSpace(h))] = true
	}
	all := f.interceptAll
	return func(host string) (*tls.Config, error) {
		if !all && !hosts[strings.ToLower(host)] {
			return nil, nil
		}
		return ca.ServerConfig(host)
	}, nil
}
