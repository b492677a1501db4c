package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/transcript"
)

// replayServerCmd is the hidden name of the scripted server that the demo
// and the tests spawn through the real tap.
const replayServerCmd = "__replay-server"

// demoScriptName is the TRANSCRIPT argument of replayServerCmd that names
// the demo's embedded script (demo.go), so the demo writes no temporary
// file and its capture names none.
const demoScriptName = "builtin:demo"

// loadServerScript reads the transcript at path, or the demo's script.
func loadServerScript(path string) (*transcript.Transcript, error) {
	if path == demoScriptName {
		return transcript.Parse(strings.NewReader(demoTranscript))
	}
	return transcript.Load(path)
}

// newReplayServerCmd returns the hidden scripted MCP server: it plays the
// server side of a transcript on its stdin and stdout, and exits non-zero
// (with the difference on stderr) when the client strays from the script.
func newReplayServerCmd(fac *Factory) *cobra.Command {
	ios := fac.IOStreams
	var scale float64
	cmd := &cobra.Command{
		Use:    replayServerCmd + " TRANSCRIPT",
		Short:  "Play the server side of a wire transcript (for the demo and tests)",
		Hidden: true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("%s takes one transcript file", replayServerCmd)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if scale < 0 {
				return usagef("--scale must not be negative")
			}
			t, err := loadServerScript(args[0])
			if errors.Is(err, fs.ErrNotExist) {
				return notFoundf("no transcript file %s", args[0])
			}
			if err != nil {
				return err
			}
			streams := transcript.ServerStreams{In: ios.In, Out: ios.Out, ErrOut: ios.ErrOut}
			if err := t.Serve(cmd.Context(), streams, &transcript.Options{Scale: scale}); err != nil {
				return fmt.Errorf("replay server: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().Float64Var(&scale, "scale", 1, "multiply every after_ms by `X` (0 runs without delays)")
	return cmd
}

// executable returns the path of the running mcptrail binary, for spawning
// the replay server.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("locating the mcptrail binary: %w", err)
	}
	return exe, nil
}
