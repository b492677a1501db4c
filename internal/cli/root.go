// Package cli holds mcptrail's cobra commands. It sits at the top of the
// import graph: it wires taps, the store and views together, and it is the
// one place where errors become exit codes. Commands get an IOStreams and
// never touch os.Stdout directly.
package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// devVersion is the version of a build neither stamped nor installed at a
// module version (a checkout's go build, the tests).
const devVersion = "0.1.0-dev"

// Version is the tool version written into capture headers and printed by
// `mcptrail version` (version.go). It is worked out once, at start, and
// never assigned again.
var Version = readBuildFacts().Version

// Main runs mcptrail with args (without the program name) and returns the
// process exit status.
func Main(ctx context.Context, args []string, io *IOStreams) int {
	root := newRootCmd(io)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	code := exitCodeFor(err)
	var ee *exitError
	if err != nil && !errors.As(err, &ee) {
		printError(io.ErrOut, err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(io.ErrOut, helpHint(root, cmd, err))
		}
	}
	return int(code)
}

// helpHint points a usage error to the help of the command it is about:
// a subcommand's own (mcptrail stats --help); on the root, a mistyped
// command gets the command list (mcptrail --help), any other mistake the
// proxy's flags (mcptrail help proxy).
func helpHint(root, cmd *cobra.Command, err error) string {
	var uc *unknownCommandError
	switch {
	case cmd != nil && cmd != root && cmd.Name() != "help":
		return fmt.Sprintf("Run '%s --help' for usage.", cmd.CommandPath())
	case cmd == root && !errors.As(err, &uc):
		return "Run 'mcptrail help proxy' for the proxy's usage and flags."
	}
	return "Run 'mcptrail --help' for usage."
}

func newRootCmd(io *IOStreams) *cobra.Command {
	fac := newFactory(io)
	root := newProxyCmd(fac, nil)
	topic := proxyTopic(root) // roothelp.go
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		newExportCmd(fac, nil),
		newSessionsCmd(fac),
		newStatsCmd(fac), newPruneCmd(fac), // stats.go, prune.go
		newLedgerCmd(fac),
		newAuthCmd(fac), // auth.go
		newDemoCmd(fac),
		newReplayServerCmd(fac),
		newReplayCmd(fac, nil), // replay_cmd.go
		newHTTPCmd(fac),
		newRulesCmd(fac),
		newOpenCmd(fac),
		newVersionCmd(fac),
		newCheckCmd(fac), // check.go
		newCACmd(fac),    // ca.go
		newDiffCmd(fac),  // diff.go
		newMockCmd(fac),  // mock.go
		newWrapCmd(fac, nil), newUnwrapCmd(fac, nil),
		newToolsCmd(fac, nil), // tools.go
		newMCPCmd(fac),        // mcp.go
		topic,
	)
	root.SuggestionsMinimumDistance = 2 // cobra's default, which it sets only when it suggests itself
	setVersion(root)
	addColorFlag(root, io)
	addCompletions(root, fac)
	strictArgs(root) // strictargs.go
	groupCommands(root)
	rootHelp(root)
	return root
}
