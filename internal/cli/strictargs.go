package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// strictArgs makes every command of root's tree treat a wrong argument as
// a usage error (exit 2), as mcptrail's own Args functions do: the
// validators cobra provides (cobra.NoArgs), and its help and completion
// commands, which on their own print help and exit 0 for a name they do
// not know.
func strictArgs(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			strictHelp(root, c)
		case "completion":
			c.RunE = func(cmd *cobra.Command, args []string) error {
				return cmd.Help() // only without arguments: Args refuses the rest
			}
			c.Args = func(_ *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usagef("unknown shell %q for completion (want bash, zsh, fish or powershell)", args[0])
				}
				return nil
			}
		}
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if check := c.Args; check != nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				err := check(cmd, args)
				var ue *usageError
				if err != nil && !errors.As(err, &ue) {
					return asUsage(err)
				}
				return err
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// strictHelp makes `mcptrail help NAME` of a NAME that is no command a
// usage error, with "did you mean" as for a mistyped subcommand.
func strictHelp(root, help *cobra.Command) {
	run := help.Run
	help.Run = nil
	help.RunE = func(cmd *cobra.Command, args []string) error {
		target, rest, err := root.Find(args)
		switch {
		case err != nil:
			return asUsage(err)
		case target == root && len(rest) > 0:
			if sugg := root.SuggestionsFor(rest[0]); len(sugg) > 0 {
				return usagef("no help topic %q — did you mean %q?", rest[0], sugg[0])
			}
			return usagef("no help topic %q (mcptrail help lists the commands)", rest[0])
		}
		run(cmd, args)
		return nil
	}
}

// oneInput is the Args check of a command that reads at most one capture:
// a SESSION, a PATH or - (stdin).
func oneInput(name string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usagef("%s takes at most one SESSION, PATH or -, got %d arguments", name, len(args))
		}
		return nil
	}
}
