package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// unknownCommand is the usage error for a first argument that is neither a
// subcommand nor after --. The root command is the proxy and takes any
// arguments, so cobra never suggests on its own: a name close to a
// subcommand's gets "did you mean", and the -- form is always named.
func unknownCommand(root *cobra.Command, name string) error {
	sugg := root.SuggestionsFor(name)
	if len(sugg) == 0 {
		return &unknownCommandError{usagef("unknown command %q; to wrap a server, put its command after --: mcptrail -- %s", name, name)}
	}
	quoted := make([]string, len(sugg))
	for i, s := range sugg {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return &unknownCommandError{usagef("unknown command %q — did you mean %s? To wrap a server, put its command after --: mcptrail -- %s",
		name, strings.Join(quoted, " or "), name)}
}

// unknownCommandError is the usage error (err, a *usageError) of a first
// argument that names no command: its help is the command list.
type unknownCommandError struct{ err error }

func (e *unknownCommandError) Error() string { return e.err.Error() }
func (e *unknownCommandError) Unwrap() error { return e.err }

// flagError is the usage error for a flag cobra could not parse. On the
// root command a flag after a mistyped subcommand (mcptrail leger --json)
// is the root's unknown flag: the mistyped name is the mistake to name.
func flagError(cmd *cobra.Command, err error) error {
	fl := cmd.Flags()
	if !cmd.HasParent() && fl.NArg() > 0 && fl.ArgsLenAtDash() < 0 && len(cmd.SuggestionsFor(fl.Arg(0))) > 0 {
		return unknownCommand(cmd, fl.Arg(0))
	}
	return &usageError{err}
}
