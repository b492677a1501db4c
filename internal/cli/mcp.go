package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/mcpserve"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// mcpOptions are the mcp command's flags beyond redaction.
type mcpOptions struct {
	maxAnswer     int
	http          string
	allowHost     []string
	allowOrigin   []string
	revealAnswers bool
}

func newMCPCmd(fac *Factory) *cobra.Command {
	var red redactFlags
	o := mcpOptions{maxAnswer: mcpserve.DefaultMaxAnswer}
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR] [--max-answer BYTES] [--reveal-answers] [--redact-* ...]",
		Short: "Serve the captures to a coding agent as an MCP server (stdio, or --http)",
		Long:  mcpLong,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("mcp takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return runMCP(cmd, fac, &o, &red) },
	}
	f := cmd.Flags()
	f.IntVar(&o.maxAnswer, "max-answer", o.maxAnswer, "bound each tool answer (structured content and text together) to `BYTES`")
	f.StringVar(&o.http, "http", "", "serve Streamable HTTP on `ADDR` (host:port; a missing host is 127.0.0.1) instead of stdio")
	f.StringSliceVar(&o.allowHost, "allow-host", nil, "with --http: also accept requests whose Host is `HOST[:PORT]` (repeatable)")
	f.StringSliceVar(&o.allowOrigin, "allow-origin", nil, "with --http: also accept browser requests whose Origin is `ORIGIN` (scheme://host[:port]; loopback ones always are)")
	f.BoolVar(&o.revealAnswers, "reveal-answers", false, "show the values of elicitation answers in the frames it returns (redaction still applies; never in a ledger row)")
	red.add(f, "in everything it answers")
	return cmd
}

// mcpLong is mcp's --help.
const mcpLong = `Mcp runs an MCP server on standard input and output that serves the captured
sessions of the state directory ($MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail,
else ~/.local/state/mcptrail) to an MCP client, so that a coding agent can
investigate an MCP server from its real traffic. Add it to your client:

  claude mcp add mcptrail -- mcptrail mcp       (Claude Code)
  codex mcp add mcptrail -- mcptrail mcp        (Codex)

or, in Cursor's .cursor/mcp.json and VS Code's .vscode/mcp.json, a server
whose command is mcptrail and whose args are ["mcp"] (docs/mcp.md).

Its tools: sessions (the session index, newest first, with the filters of
mcptrail sessions), session_summary (one session's header, counts, failed and
slowest calls, ledger counts and findings by severity), calls (the requests
the filter language of the TUI matches, docs/filter.md), call (one request's
frames, an elicitation answer's values replaced), ledger (the rows of
mcptrail ledger --json), check (the findings of mcptrail check -T json under
the [rules] of .mcptrail.toml, with each raised rule's help), diff (two
sessions, as diff --json), tools (a session's catalog as tools --json, or its
drift from a baseline session), tail (wait at most 60s for a live session's
next calls while the user reproduces a problem) and explain_rule. Resources:
mcptrail://sessions/ID (export -T text's report) and
mcptrail://sessions/ID/frames/SEQ (one frame whole); a prompt, debug_session.
A session argument is an id or unique id prefix; empty is the newest session.

--http ADDR serves Streamable HTTP on ADDR (host:port; a missing host is
127.0.0.1) instead of stdio, behind the request policy of mcptrail's other
listeners: a Host that names none of the listener's names, or a browser
Origin that is not loopback, the listener or --allow-origin, is refused (403),
and a POST that is not JSON too (415).

It is read-only: it never writes or deletes a capture and never starts or
replays a server; like mcptrail sessions it brings the session index (a cache)
up to date. Every answer, its structured content and its text together, stays
within --max-answer bytes: lists are paginated with a cursor, long strings are
cut with their size, and an answer says what it left out. A ledger row never
holds a value the user submitted, and a frame shows an elicitation answer's
values replaced unless --reveal-answers is given (for an operator debugging
their own test data; the --redact-* flags and [redact] still apply, to
everything it reads). docs/mcp.md has the details.`

// runMCP checks mcp's flags and serves the captures on stdio or --http.
func runMCP(cmd *cobra.Command, fac *Factory, o *mcpOptions, red *redactFlags) error {
	ios := fac.IOStreams
	if o.maxAnswer < mcpserve.MinMaxAnswer {
		return usagef("--max-answer %d: want at least %d bytes", o.maxAnswer, mcpserve.MinMaxAnswer)
	}
	if o.http == "" && (len(o.allowHost) > 0 || len(o.allowOrigin) > 0) {
		return usagef("--allow-host and --allow-origin need --http")
	}
	if err := admit.CheckOrigins(o.allowOrigin); err != nil {
		return usagef("--allow-origin: %v", err)
	}
	r, err := fac.Redactor(red, cmd.Flags())
	if err != nil {
		return err
	}
	reg, err := fac.Rules()
	if err != nil {
		return err
	}
	state, err := fac.StateDir()
	if err != nil {
		return err
	}
	opts := &mcpserve.Options{StateDir: state, Rules: reg, Redactor: r, MaxAnswer: o.maxAnswer, Version: Version, Now: ios.Now,
		RevealAnswers: o.revealAnswers, Warn: func(s string) { fmt.Fprintln(ios.ErrOut, termtext.Escape(s)) }}
	if o.http != "" {
		return serveMCPHTTP(cmd.Context(), ios, opts, o)
	}
	err = mcpserve.Serve(cmd.Context(), ios.In, ios.Out, opts)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("serving MCP: %w", err)
	}
	return nil
}

// serveMCPHTTP serves opts on --http until a stop signal arrives, behind
// the listeners' request policy (Host, Origin, JSON POSTs).
func serveMCPHTTP(ctx context.Context, ios *IOStreams, opts *mcpserve.Options, o *mcpOptions) error {
	addr := o.http
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return listenError(addr, err)
	}
	policy, err := admit.New(&admit.Options{Hosts: admit.ListenerHosts(ln.Addr(), o.allowHost), Origins: o.allowOrigin})
	if err != nil {
		_ = ln.Close()
		return usagef("--allow-origin: %v", err)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ready := func() { fmt.Fprintf(ios.ErrOut, "mcptrail mcp: listening on http://%s/\n", ln.Addr()) }
	return serveUntilSignal(ctx, ln, mcpserve.Handler(opts, policy), serverIdle, ready)
}
