package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/mock"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// mockOptions are the mock command's flags and argument.
type mockOptions struct {
	input         string
	session       string
	http          string // --http ADDR; "" serves stdio
	match         string
	allowRedacted bool
	allowHost     []string // --allow-host: more Host values for --http
	allowOrigin   []string // --allow-origin: more browser origins for --http
}

func newMockCmd(fac *Factory) *cobra.Command {
	opts := mockOptions{}
	cmd := &cobra.Command{
		Use:   "mock [--http ADDR] [--match strict|loose] [--allow-redacted] SESSION|PATH",
		Short: "Serve the server side of a capture to a real client",
		Long: `Mock plays the server side of a captured session to a live client, without
the real server: over stdio (the default: run it where the client runs its
server, e.g. "mcptrail mock SESSION" as the server command) or, with --http
ADDR, as a Streamable HTTP endpoint on every path (ADDR without a host
listens on 127.0.0.1), for clients of both eras (2026-07-28, and the
session-based 2025 era, which gets an Mcp-Session-Id). Over HTTP it
refuses what 'mcptrail http' refuses: a Host that is not its address (or
named with --allow-host) and a browser Origin that is neither loopback,
its own address nor named with --allow-origin get 403, a POST whose
Content-Type is not application/json 415.

Each request is matched to a recorded one by method, target and params
(_meta aside) and answered with the recorded answer under the live id;
when several match, the earliest unused one wins. --match loose ignores
params members the recording did not have. initialize and server/discover
are answered as recorded whatever their params; a list request the client
repeats gets the recorded page again. An MRTR input_required result is
sent with a requestState the mock mints; the retry must echo it and carry
inputResponses for the recorded keys, and gets the next recorded round or
the final result. A legacy call that carried server requests (an
elicitation/create) sends them, with ids the mock mints, and answers the
call once the client has answered them. The recorded answer is sent
whatever the client answers. The server notifications recorded while a
call was in flight are sent before its answer (a progress notification
with the live request's progressToken, and only when it has one); the
others are not sent. A notification from the client gets nothing. With
--http, an answer recorded with an HTTP error status is served with that
status, as recorded when its id is null (a 2025 server's 400 to a
server/discover probe), else under the live id.

A request the recording has no answer for gets a JSON-RPC error whose
message starts "mcptrail mock:" and says what was expected (-32601 for a
method the recording never saw, else -32602). When the client closes
stdin, or on Ctrl-C, the mock prints to stderr the recorded requests that
were never asked for, and exits 0.

SESSION, PATH and --session pick the capture as for export. A redacted
capture is refused (exit 2) unless --allow-redacted: it would serve
[REDACTED] in place of the recorded values.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("mock takes one SESSION or PATH, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			opts.input = args[0]
			return runMock(fac, &opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.http, "http", "", "serve Streamable HTTP on `ADDR` (host:port; a missing host is 127.0.0.1) instead of stdio")
	f.StringVar(&opts.match, "match", string(mock.MatchStrict), "how params are compared: strict, or loose (ignore members the recording did not have)")
	f.BoolVar(&opts.allowRedacted, "allow-redacted", false, "serve a redacted capture")
	f.StringSliceVar(&opts.allowHost, "allow-host", nil, "with --http: also accept requests whose Host is `HOST[:PORT]` (repeatable)")
	f.StringSliceVar(&opts.allowOrigin, "allow-origin", nil, "with --http: also accept browser requests whose Origin is `ORIGIN` (scheme://host[:port]; loopback ones always are)")
	f.StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	return cmd
}

func runMock(fac *Factory, opts *mockOptions) error {
	ios := fac.IOStreams
	match, err := mock.ParseMatch(opts.match)
	if err != nil {
		return usagef("--match: %v", err)
	}
	if opts.http == "" && (len(opts.allowHost) > 0 || len(opts.allowOrigin) > 0) {
		return usagef("--allow-host and --allow-origin need --http")
	}
	if err := admit.CheckOrigins(opts.allowOrigin); err != nil {
		return usagef("--allow-origin: %v", err)
	}
	script, name, err := loadMockScript(fac, opts)
	if err != nil {
		return err
	}
	m := mock.New(script, &mock.Options{Match: match})
	if opts.http != "" {
		err = serveMockHTTP(ios, m, opts, name)
	} else {
		err = serveMockStdio(ios, m)
	}
	reportUnasked(ios.ErrOut, m.Unasked())
	return err
}

// loadMockScript reads the capture the argument names into a Script,
// printing its warnings.
func loadMockScript(fac *Factory, opts *mockOptions) (*mock.Script, string, error) {
	ios := fac.IOStreams
	snap, name, closeIn, err := readSnapshot(fac, opts.input, opts.session, session.Options{NoChecks: true})
	if err != nil {
		return nil, "", err
	}
	defer closeIn()
	if snap.Session.Redacted && !opts.allowRedacted {
		return nil, "", usagef("%s is a redacted capture: the mock would serve [REDACTED] in place of recorded values (pass --allow-redacted to serve it anyway)", name)
	}
	script, err := mock.NewScript(snap)
	for _, w := range script.Warnings {
		fmt.Fprintf(ios.ErrOut, "mcptrail mock: warning: %s\n", termtext.Escape(w))
	}
	if errors.Is(err, mock.ErrEmpty) {
		return nil, "", badInput(fmt.Errorf("%s: %w", name, err))
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", name, err)
	}
	return script, name, nil
}

// serveMockStdio serves the client on standard input and output until
// standard input ends or a stop signal arrives.
func serveMockStdio(ios *IOStreams, m *mock.Mock) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals()...)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- m.ServeStdio(ios.In, ios.Out) }()
	select {
	case err := <-done:
		return err
	case <-sigs:
		return nil
	}
}

// serveMockHTTP serves the mock on --http until a stop signal arrives,
// behind the listeners' request policy (Host, Origin, JSON POSTs).
func serveMockHTTP(ios *IOStreams, m *mock.Mock, opts *mockOptions, name string) error {
	addr := opts.http
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return listenError(addr, err)
	}
	policy, err := admit.New(&admit.Options{Hosts: admit.ListenerHosts(ln.Addr(), opts.allowHost), Origins: opts.allowOrigin})
	if err != nil {
		_ = ln.Close()
		return usagef("--allow-origin: %v", err)
	}
	ready := func() {
		fmt.Fprintf(ios.ErrOut, "mcptrail mock: serving %s; listening on http://%s/\n", termtext.Escape(name), ln.Addr())
	}
	return serveUntilSignal(context.Background(), ln, m.Handler(policy), serverIdle, ready)
}

// reportUnasked prints the recorded requests the client never asked for.
func reportUnasked(w io.Writer, lines []string) {
	if len(lines) == 0 {
		fmt.Fprintln(w, "mcptrail mock: the client asked for every recorded request")
		return
	}
	if len(lines) == 1 {
		fmt.Fprintln(w, "mcptrail mock: 1 recorded request was never asked for:")
	} else {
		fmt.Fprintf(w, "mcptrail mock: %d recorded requests were never asked for:\n", len(lines))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", termtext.Escape(l))
	}
}
