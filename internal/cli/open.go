package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tui"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// openOptions are the open command's flags and argument.
type openOptions struct {
	input   string // "" newest session, "-" stdin, a session id or a path
	session string
	redact  redactFlags
}

func newOpenCmd(fac *Factory) *cobra.Command {
	ios := fac.IOStreams
	opts := openOptions{}
	cmd := &cobra.Command{
		Use:   "open [SESSION|PATH|-]",
		Short: "Watch a session in the terminal UI, live while it is being captured",
		Long: `Open shows one session in the terminal UI: every call in order, MRTR operations
with their rounds, legacy server requests under the call they interrupted, each
frame as foldable JSON, the elicitation ledger (l), capabilities (c), tools (t)
and findings (f). Press ? for the keys.

With no argument it opens the newest session in the state directory. SESSION is
a session id (or a unique prefix of one) found there, PATH a capture file, and
- reads a capture from standard input (the keys are then read from the
terminal). A session still being captured, by mcptrail or mcptrail http in
another terminal, streams in as it grows.

Without an argument and a subcommand, mcptrail on a terminal opens the hub: every
session of the state directory, live ones marked.

The --redact-* flags (and the [redact] table of .mcptrail.toml) scrub what is
shown and exported, as for export; the capture file itself is only read.`,
		Args: oneInput("open"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.input = args[0]
			}
			if !ios.OutIsTerminal {
				return usagef("open needs a terminal; to read a session as text, use mcptrail export -T text")
			}
			red, err := fac.Redactor(&opts.redact, cmd.Flags())
			if err != nil {
				return err
			}
			reg, err := fac.Rules()
			if err != nil {
				return err
			}
			return runOpen(cmd.Context(), fac, &opts, red, reg)
		},
	}
	cmd.Flags().StringVar(&opts.session, "session", "", "open the session `ID` (or unique id prefix) of a file that holds several")
	opts.redact.add(cmd.Flags(), "in what is shown and exported")
	return cmd
}

func runOpen(ctx context.Context, fac *Factory, opts *openOptions, red redact.Redactor, reg *finding.Registry) error {
	ios := fac.IOStreams
	topts := tui.Options{
		Source:  &source.Options{Redactor: red, Rules: reg},
		ID:      opts.session,
		Export:  tuiExport(fac, opts.redact, red, reg),
		Streams: tuiStreams(ios),
	}
	if opts.input == "-" {
		topts.Stdin = ios.In
	} else {
		path, want, err := resolveCapture(fac, opts.input)
		if err != nil {
			return err
		}
		topts.Path = path
		if topts.ID == "" {
			topts.ID = want
		}
	}
	return tui.Run(ctx, topts)
}

// runHub opens the hub over the state directory: what a bare mcptrail
// does on a terminal.
func runHub(ctx context.Context, fac *Factory) error {
	red, err := fac.Redactor(&redactFlags{}, pflag.NewFlagSet("hub", pflag.ContinueOnError))
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
	return tui.Run(ctx, tui.Options{
		Source:  &source.Options{Redactor: red, Rules: reg},
		Dir:     capture.SessionsDir(state),
		Export:  tuiExport(fac, redactFlags{}, red, reg),
		Streams: tuiStreams(fac.IOStreams),
	})
}

// tuiStreams is the terminal of ios the TUI runs on: it draws on Out, and
// reads keys from In when In is a terminal (else the TUI opens the
// controlling terminal: In may carry the capture).
func tuiStreams(ios *IOStreams) tui.Streams {
	s := tui.Streams{Out: ios.Out}
	if ios.InIsTerminal {
		s.In = ios.In
	}
	return s
}

// tuiExport is the TUI's `e`: the session shown is exported as format
// into a new file of the working directory, as mcptrail export would
// write it.
func tuiExport(fac *Factory, flags redactFlags, red redact.Redactor, reg *finding.Registry) func(context.Context, ui.Data, string) (string, error) {
	return func(ctx context.Context, d ui.Data, format string) (string, error) {
		if d.Path == "" {
			return "", errors.New("a session read from standard input cannot be exported from here; pipe it to mcptrail export")
		}
		s := d.Snap.Session
		base := capture.FileSafe(s.Label) + "-" + strings.TrimRight(capture.FileSafe(shortID(s.ID)), "-_.")
		out, err := freeName(base, map[string]string{"json": ".json", "text": ".txt", "html": ".html"}[format])
		if err != nil {
			return "", err
		}
		var errOut bytes.Buffer // a warning must not scribble on the TUI
		quiet := *fac.IOStreams
		quiet.ErrOut = &errOut
		qf := *fac
		qf.IOStreams = &quiet
		eo := exportOptions{Factory: &qf, format: format, output: out, input: d.Path, session: s.ID, redact: flags, rules: reg, red: red}
		if err := runExport(&eo); err != nil {
			return "", err
		}
		msg := "exported to " + out
		if w, _, _ := strings.Cut(strings.TrimSpace(errOut.String()), "\n"); w != "" {
			msg += " (" + strings.TrimPrefix(w, "mcptrail: ") + ")"
		}
		return msg, nil
	}
}

// freeName is base+ext in the working directory, or base-2+ext … when
// that exists: an export from the TUI never replaces a file.
func freeName(base, ext string) (string, error) {
	for i := 1; i < 1000; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return filepath.Join(".", name), nil
		}
	}
	return "", fmt.Errorf("no free file name for %s%s in the working directory", base, ext)
}

// shortID is the first 8 characters of a session id.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
