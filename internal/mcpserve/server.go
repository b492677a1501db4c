// Package mcpserve serves the captures of the state directory as an MCP
// server (mcptrail mcp), so that a user's coding agent can investigate
// their MCP server from real traffic with the tools a person has in the
// CLI: the session index, one session's summary, its calls through the
// TUI's filter language, one call's frames, the elicitation ledger, the findings under the
// user's [rules], a rule's help.
//
// It is a view at the top of the reading half: it opens sessions through
// internal/session, reads the session index (internal/index) and builds
// its answers with the views whose JSON it mirrors (internal/check for
// findings, internal/export/json for ledger rows), so a tool answers what
// the CLI prints for the same session. It is read-only: it never writes a
// capture, starts or replays a server, or deletes anything (the index is
// the cache `sessions` keeps, brought up to date as that command does).
//
// Every answer is bounded (Options.MaxAnswer): lists are paginated with a
// cursor, long strings are cut with their size, and an answer says what it
// left out. Tool calls are served one at a time (the Redactor keeps
// per-session state), each on the SDK's goroutine for its request.
package mcpserve

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/admit"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// DefaultMaxAnswer is the answer budget when Options.MaxAnswer is zero:
// what an agent can afford to read in one tool result.
const DefaultMaxAnswer = 16 << 10

// MinMaxAnswer is the least budget an answer can be cut to and still say
// what it left out.
const MinMaxAnswer = 4 << 10

// Options say what the server reads and how it answers.
type Options struct {
	// StateDir is the state directory whose sessions folder is served
	// (capture.StateDir); it must be set.
	StateDir string
	// Rules grades the findings: the user's registry ([rules] applied to
	// rules.Default). Nil means rules.Default().
	Rules *finding.Registry
	// Redactor, when non-nil, redacts every record read before an answer
	// is built from it (the user's [redact] and --redact-* flags). Nil
	// redacts nothing.
	Redactor redact.Redactor
	// RevealAnswers, set by the operator's explicit flag, shows the
	// values of elicitation answers in the frames the call tool and the
	// frame resource return (the Redactor still applies). False, the
	// default, replaces them whatever the Redactor says. No ledger row
	// ever holds one.
	RevealAnswers bool
	// MaxAnswer bounds each answer's structured and text content
	// together, in bytes; zero means DefaultMaxAnswer.
	MaxAnswer int
	// Version is the server version announced to clients; "" says "dev".
	Version string
	// Now is the clock the since filter reads; nil means time.Now.
	Now func() time.Time
	// Warn receives the one-line warnings of the session index (a file it
	// could not read); nil drops them.
	Warn func(string)
}

// Server answers the tools over one state directory.
type Server struct {
	opts Options
	// mu serialises tool calls: the Redactor and the index are used by
	// one call at a time.
	mu sync.Mutex
	// live is set by open when the capture it opened is still written.
	live bool
}

// New returns the MCP server of opts, its tools registered; nil opts
// means the zero Options, which serve nothing useful (StateDir unset).
func New(opts *Options) *mcp.Server {
	s := &Server{}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxAnswer == 0 {
		s.opts.MaxAnswer = DefaultMaxAnswer
	}
	if s.opts.Now == nil {
		s.opts.Now = time.Now
	}
	if s.opts.Version == "" {
		s.opts.Version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptrail", Title: "mcptrail captures", Version: s.opts.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{}, Prompts: &mcp.PromptCapabilities{}}})
	for _, t := range s.tools() {
		srv.AddTool(t.tool, s.handler(t))
	}
	s.addResources(srv)
	s.addPrompt(srv)
	return srv
}

// instructions tell a client where to start.
const instructions = `mcptrail's captures of MCP sessions, read-only. Start with sessions (newest first), ` +
	`then session_summary for one session (counts, errors, slowest calls, ledger and findings), ` +
	`then calls (the requests a filter such as "status:error" or "tool:NAME" matches) and call (one request's frames; ` +
	`a frame's uri, mcptrail://sessions/ID/frames/SEQ, reads it whole), ` +
	`ledger (what the server asked the user) and check (findings, with each rule's help); ` +
	`explain_rule gives one rule's help, tools the server's catalog (with baseline, what changed), diff compares two sessions, ` +
	`and tail waits for a live session's next calls while the user reproduces a problem. ` +
	`The resource mcptrail://sessions/ID is a session's text report; the prompt debug_session walks through a session. ` +
	`A session argument is an id or a unique id prefix; empty means the newest session. Lists are paginated: pass next_cursor back as cursor.`

// Handler serves the server of opts over Streamable HTTP, at any path,
// behind the listeners' request policy (admit: the Host must name the
// listener, a browser Origin must be loopback, the listener or allowed,
// a POST must be JSON), which stands in for the SDK's own localhost check.
func Handler(opts *Options, policy *admit.Policy) http.Handler {
	srv := New(opts)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true})
	return policy.Handler(h, true)
}

// Serve runs the server of opts on in and out (newline-delimited
// JSON-RPC, the stdio transport) until the client closes in or ctx ends.
// At the end of in it answers the requests it read first.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts *Options) error {
	d := newDrain(ctx, in, out)
	return New(opts).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(d), Writer: d})
}
