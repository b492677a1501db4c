package cli

import "github.com/spf13/cobra"

// STUB: replaced by the helper that owns this command.
func newExportCmd(io *IOStreams) *cobra.Command {
	return &cobra.Command{Use: "export"}
}
