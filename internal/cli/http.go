package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/httpproxy"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

const httpLong = `Wrap a remote MCP server that speaks Streamable HTTP, in one of two modes:
--target URL puts mcptrail in front of that one server (a reverse proxy, below);
--forward makes it a forward proxy the client reaches through HTTPS_PROXY, with
no --target (see "With --forward" further down). One of the two is required.

With --target, mcptrail listens on --listen (loopback, 127.0.0.1:7000, unless
told otherwise) and forwards every request to --target, byte for byte: POST with
JSON or text/event-stream answers, GET (the legacy standalone stream,
Last-Event-ID resumption) and DELETE, over HTTP/1.1 or h2c (HTTP/2 in
cleartext, with prior knowledge). Events are passed on the moment they
arrive. Point your MCP client at http://127.0.0.1:7000/ (or at the target's
path on that address) instead of the server.

Requests whose Host header is not an address mcptrail listens on (or one
named with --allow-host) are refused with 403, against DNS rebinding; so
are browser requests whose Origin is neither loopback, mcptrail's own
address nor named with --allow-origin (cross-site requests), and a POST to
the MCP endpoint whose Content-Type is not application/json gets 415. A
refused request never reaches the target; the capture notes it. Clients
that are not browsers send no Origin. Origin and Authorization are
forwarded unchanged; the capture records only whether Authorization and
cookies were present, and the auth scheme.

Every exchange is captured, like the stdio shim does: each JSON-RPC message
in a request body or an SSE event is a frame with its HTTP envelope, and an
answer without a message (202, 401, 404, a 502 when the target is down) is a
frame too. The first time the target answers with a failing status (401,
403, 404, 5xx, a 502 when it is down), one line on stderr says so, once per
status; export flags every such answer (rule http-error-status). SIGINT, SIGTERM or SIGHUP stops the listener, gives open
streams 2 s (a second signal cuts them at once) and ends the capture.

The --redact-* flags scrub what the capture records (never the bytes that are
forwarded): values of secret keys in bodies, SSE events and envelope headers,
JSONPath selections, regex matches, and what users typed into elicitation
forms. Your own configuration ($XDG_CONFIG_HOME/mcptrail/config.toml, else
~/.config/mcptrail/config.toml) may set label, capture (an absolute or ~/
path) and a [redact] table; .mcptrail.toml in the working directory may set
label and add to [redact], but not capture (it is refused: a cloned
repository must not choose where mcptrail writes); flags override both.

With --forward, mcptrail is an HTTP forward proxy instead (loopback,
127.0.0.1:8080, unless --listen names another address): the client keeps
the server's real URL and sends its requests through mcptrail with
HTTPS_PROXY/HTTP_PROXY, so OAuth discovery, audiences and issuers stay as
the servers expect. Plain http requests are relayed and captured; an https
origin is reached through CONNECT, tunnelled blind (recorded as a tunnel:
host, bytes, duration) unless --intercept names its host (or
--intercept-all): mcptrail then decrypts the tunnel with a certificate from
its local CA (for --intercept, one that may vouch for those hosts alone:
mcptrail ca --intercept HOST,... shows it; the client must trust it) and verifies the real
server's certificate as usual. MCP exchanges are captured as frames; every
other exchange (OAuth metadata, registration, token requests) as one
exchange record with method, URL, status, headers and bodies, with tokens,
codes, code verifiers, client secrets, assertions and software statements
replaced by [REDACTED] in bodies and URLs. --allow-origin limits the origins relayed
(others get 403, recorded). One capture holds every origin. An address
beyond loopback (0.0.0.0, [::], :PORT, a LAN address) needs --allow-remote:
whoever reaches a forward proxy can use it.

Through the reverse proxy, documents off the MCP endpoint (/.well-known
metadata) are captured as exchange records too; when the server's
protected-resource metadata names a resource other than mcptrail's URL,
or a 401 names resource_metadata on the target's own origin (clients then
fetch it around mcptrail), one line on stderr says that OAuth clients will
refuse it and points to --forward.

The --events-* and --otlp-* flags send analytics events as the stdio shim
does (docs/events.md); a call answered only by an HTTP error status (401,
403, 502, ...) is an event too, with that status as its error.`

// httpFlags are the http command's flags.
type httpFlags struct {
	tapFlags
	target string
	listen string
	allow  []string
	fwd    forwardFlags
}

func newHTTPCmd(fac *Factory) *cobra.Command {
	var f httpFlags
	cmd := &cobra.Command{
		Use:   "http (--target URL | --forward) [flags]",
		Short: "Wrap a Streamable HTTP MCP server (reverse proxy with capture)",
		Long:  httpLong,
		Example: `  mcptrail http --target https://mcp.example.com/mcp
  mcptrail http --target http://127.0.0.1:8080/mcp --listen 127.0.0.1:7001 --label local
  mcptrail http --forward --allow-origin https://mcp.example.com,https://auth.example.com --intercept mcp.example.com,auth.example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.checkForward(cmd); err != nil {
				return err
			}
			if f.fwd.on {
				return runForward(cmd, fac, &f)
			}
			return runHTTP(cmd, fac, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.target, "target", "", "the server's MCP endpoint `URL` (reverse proxy; required unless --forward, refused with it)")
	fl.StringVar(&f.listen, "listen", "127.0.0.1:7000", "listen on `ADDR` (host:port; port 0 picks one; with --forward 127.0.0.1:8080)")
	fl.StringVar(&f.capture, "capture", "", "write the capture to `PATH` instead of the sessions directory")
	fl.StringVar(&f.label, "label", "", "name the session `L` (default: the target's host, or \"forward\")")
	fl.BoolVar(&f.noCapture, "no-capture", false, "relay only; write no capture")
	addCaptureFileFlags(fl, &f.tapFlags)
	fl.StringSliceVar(&f.allow, "allow-host", nil, "also accept requests whose Host is `HOST[:PORT]` (repeatable)")
	f.fwd.add(fl)
	f.redact.add(fl, "in the capture")
	f.events.add(fl)
	return cmd
}

func runHTTP(cmd *cobra.Command, fac *Factory, f *httpFlags) error {
	io := fac.IOStreams
	target, err := parseTarget(f.target)
	if err != nil {
		return err
	}
	red, err := f.settle(cmd.Flags(), fac.Config)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return listenError(f.listen, err)
	}
	label := f.label
	if label == "" {
		label = target.Hostname()
	}
	start := io.Now()
	id := capture.NewSessionID()
	file, err := openCapture(fac, &f.tapFlags, start, label, id)
	if err != nil {
		_ = ln.Close()
		return err
	}
	opts := &httpproxy.Options{
		Target:         target,
		Header:         capture.Record{SessionID: id, Label: label, ToolVersion: Version, PID: os.Getpid()},
		Now:            io.Now,
		AllowedHosts:   admit.ListenerHosts(ln.Addr(), f.allow),
		AllowedOrigins: f.fwd.allowOrigin,
		OnFailure:      (&failureNotices{w: io.ErrOut}).report,
		OnHint:         func(s string) { fmt.Fprintf(io.ErrOut, "mcptrail: %s\n", termtext.Escape(s)) },
	}
	return serveProxy(cmd, fac, f, ln, file, red, opts, func(err error) error { return err }, func() {
		fmt.Fprintf(io.ErrOut, "mcptrail: listening on http://%s/ → %s\n", ln.Addr(), termtext.Escape(shownTarget(target, red)))
	})
}

// serveProxy finishes opts (capture file, redaction, live events), serves
// the proxy on ln until a signal, calling ready once it listens, and ends
// the capture. newErr maps an error of httpproxy.New to the one returned.
func serveProxy(cmd *cobra.Command, fac *Factory, f *httpFlags, ln net.Listener, file *capture.File, red redact.Redactor,
	opts *httpproxy.Options, newErr func(error) error, ready func()) error {
	io := fac.IOStreams
	if file != nil {
		opts.Capture = file
		opts.SpoolDir = filepath.Dir(file.Name()) // a huge frame waits next to its capture
		opts.OnCaptureError = captureFailed(io)
	}
	if red != nil {
		opts.Redact = red
	}
	f.events.mcpcat.getenv = io.Getenv
	live, err := f.events.start(cmd.Context(), io, file)
	if err != nil {
		_ = ln.Close()
		closeQuietly(file)
		return err
	}
	if live != nil {
		opts.Feed = live.feed
		opts.BeforeEnd = live.notes
	}
	p, err := httpproxy.New(opts)
	if err != nil {
		_ = ln.Close()
		closeQuietly(file)
		if live != nil {
			live.finish(io)
		}
		return newErr(err)
	}
	serveErr := serveUntilSignal(cmd.Context(), ln, p, serverIdle, ready)
	err = p.Close()
	if live != nil {
		live.finish(io)
	}
	return errors.Join(serveErr, closeCapture(fac, file, false, err))
}

// parseTarget checks --target.
func parseTarget(s string) (*url.URL, error) {
	if s == "" {
		return nil, usagef("--target URL (or --forward) is required")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("--target must be an http or https URL, got %q", s)
	}
	return u, nil
}

// serveUntilSignal serves until SIGINT, SIGTERM, SIGHUP or ctx, then
// shuts down (stopServer); a connection idle for idle is closed. It calls ready once those signals are caught,
// so a signal sent once the listening line is out cannot kill mcptrail
// before the capture ends.
func serveUntilSignal(ctx context.Context, ln net.Listener, h http.Handler, idle time.Duration, ready func()) error {
	// HTTP/1.1 and h2c (HTTP/2 over cleartext with prior knowledge);
	// the target is reached over HTTP/1.1 or, for https, what it offers.
	var protos http.Protocols
	protos.SetHTTP1(true)
	protos.SetUnencryptedHTTP2(true)
	reqs, cancelCause := context.WithCancelCause(context.Background())
	cancelRequests := func() { cancelCause(httpproxy.ErrStopping) }
	defer cancelRequests()
	var running inflight
	srv := newServer(running.wrap(h), idle)
	srv.Protocols = &protos
	srv.BaseContext = func(net.Listener) context.Context { return reqs }
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	ready()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-sigs:
	case <-ctx.Done():
	}
	stopServer(srv, &running, cancelRequests, sigs)
	<-done
	return nil
}
