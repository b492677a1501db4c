package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/mcpserve"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

func newMCPCmd(fac *Factory) *cobra.Command {
	ios := fac.IOStreams
	var red redactFlags
	maxAnswer := mcpserve.DefaultMaxAnswer
	cmd := &cobra.Command{
		Use:   "mcp [--max-answer BYTES] [--redact-* ...]",
		Short: "Serve the captures to a coding agent as an MCP server (stdio)",
		Long: `Mcp runs an MCP server on standard input and output that serves the captured
sessions of the state directory ($MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail,
else ~/.local/state/mcptrail) to an MCP client, so that a coding agent can
investigate an MCP server from its real traffic. Add it to Claude Code with

  claude mcp add mcptrail -- mcptrail mcp

Its tools: sessions (the session index, newest first, with the filters of
mcptrail sessions), session_summary (one session's header, counts, failed and
slowest calls, ledger counts and findings by severity), calls (the requests
the filter language of the TUI matches, docs/filter.md), call (one request's
frames, an elicitation answer's values always replaced), ledger (the rows of
mcptrail ledger --json), check (the findings of mcptrail check -T json under
the [rules] of .mcptrail.toml, with each raised rule's help) and explain_rule.
A session argument is an id or unique id prefix; empty is the newest session.

It is read-only: it never writes or deletes a capture and never starts or
replays a server; like mcptrail sessions it brings the session index (a cache)
up to date. Every answer, its structured content and its text together, stays
within --max-answer bytes: lists are paginated with a cursor, long strings are
cut with their size, and an answer says what it left out. A ledger row never
holds a value the user submitted; the --redact-* flags and the [redact] table
apply to everything it reads. docs/mcp.md has the details.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("mcp takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if maxAnswer < mcpserve.MinMaxAnswer {
				return usagef("--max-answer %d: want at least %d bytes", maxAnswer, mcpserve.MinMaxAnswer)
			}
			r, err := fac.Redactor(&red, cmd.Flags())
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
			opts := &mcpserve.Options{StateDir: state, Rules: reg, Redactor: r, MaxAnswer: maxAnswer, Version: Version, Now: ios.Now,
				Warn: func(s string) { fmt.Fprintln(ios.ErrOut, termtext.Escape(s)) }}
			err = mcpserve.Serve(cmd.Context(), ios.In, ios.Out, opts)
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("serving MCP: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&maxAnswer, "max-answer", maxAnswer, "bound each tool answer (structured content and text together) to `BYTES`")
	red.add(cmd.Flags(), "in everything it answers")
	return cmd
}
