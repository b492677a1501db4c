package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

const proxyLong = `mcptrail is a transparent proxy for MCP servers that speak over stdio.

Put it in front of a server's command in your MCP client's configuration:

  mcptrail [flags] -- npx -y @modelcontextprotocol/server-everything

It starts the server and relays every byte between the client and the server
unchanged: our stdin to the server's stdin, the server's stdout to our stdout,
the server's stderr to our stderr. mcptrail writes nothing of its own to
stdout, which carries the protocol.

It also writes a lossless capture of the session, one JSONL file per run, in
the sessions directory under $MCPTRAIL_HOME (else $XDG_STATE_HOME/mcptrail,
else ~/.local/state/mcptrail), private to you. If the disk cannot keep up, the
traffic is slowed down, never dropped. --capture PATH writes it elsewhere
({time}, {label}, {pid} and {id} in PATH are filled in); an existing file is
refused unless --append or --force, a symlink is never followed, and the file
is locked while it is written.

The --redact-* flags scrub what the capture records (never the bytes that are
relayed): values of secret keys, JSONPath selections, regex matches, and
what users typed into elicitation forms. Your own configuration
($XDG_CONFIG_HOME/mcptrail/config.toml, else ~/.config/mcptrail/config.toml;
%APPDATA%\mcptrail\config.toml on Windows) may set label, capture (an
absolute or ~/ path) and a [redact] table; .mcptrail.toml in the working
directory may set label and add to [redact], but not capture (it is refused:
a cloned repository must not choose where mcptrail writes); flags override
both.

The server's exit status becomes mcptrail's (128+n when signal n killed it).
SIGINT, SIGTERM and SIGHUP are passed on to the server; if it is still running
--kill-after (5s) later, or when a second signal arrives, mcptrail kills it.
When the client closes our stdin, the server's stdin is closed and mcptrail
waits for the server. When the client is gone altogether (writing to it fails,
or it closed stdin and its end of stdout and the server is still running
--kill-after later), mcptrail notes it, stops recording the server's output,
sends the server SIGTERM (SIGKILL after --kill-after) and exits. The
server-exit note records who asked the server to stop (stopped_by): a server
that exits on the signal its client sent at shutdown exited normally; one
still running a second after its stdin closed is flagged
server-ignored-stdin-eof (info). If mcptrail
itself is killed, the server gets SIGKILL on Linux; elsewhere it sees EOF on its stdin (on Windows its process tree is
ended).`

// proxyFlags are the root command's flags.
type proxyFlags struct {
	tapFlags
	killAfter time.Duration
}

// proxyOptions are what the proxy (the root command) runs with: its
// dependencies, its flags and the server command after --.
type proxyOptions struct {
	*Factory
	ctx     context.Context
	flags   proxyFlags
	fs      *pflag.FlagSet // the command's flags: a --redact-* flag set replaces the configuration's
	command []string       // the server command and its arguments
}

// newProxyCmd returns the root command, the stdio proxy; runF, when not
// nil, runs instead of runProxy.
func newProxyCmd(fac *Factory, runF func(*proxyOptions) error) *cobra.Command {
	io := fac.IOStreams
	opts := &proxyOptions{Factory: fac}
	f := &opts.flags
	cmd := &cobra.Command{
		Use:   "mcptrail [flags] -- SERVER-COMMAND [ARGS...]",
		Short: "Transparent MCP proxy with a lossless session capture",
		Long:  proxyLong,
		Example: `  mcptrail -- node build/index.js
  mcptrail --label github -- docker run -i --rm ghcr.io/github/github-mcp-server
  mcptrail --capture session.jsonl -- uvx mcp-server-git`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && cmd.Flags().NFlag() == 0 && io.InIsTerminal && io.OutIsTerminal {
				return runHub(cmd.Context(), fac)
			}
			if err := checkProxyArgs(cmd, io, f, args); err != nil {
				return err
			}
			opts.ctx, opts.fs, opts.command = cmd.Context(), cmd.Flags(), args
			if runF != nil {
				return runF(opts)
			}
			return runProxy(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.capture, "capture", "", "write the capture to `PATH` instead of the sessions directory")
	fl.StringVar(&f.label, "label", "", "name the session `L` (default: the server's script or package name)")
	fl.BoolVar(&f.noCapture, "no-capture", false, "relay only; write no capture")
	addCaptureFileFlags(fl, &f.tapFlags)
	f.redact.add(fl, "in the capture")
	f.events.add(fl)
	fl.DurationVar(&f.killAfter, "kill-after", stdio.DefaultKillAfter, "kill the server if it is still running `DURATION` after it was asked to stop")
	return cmd
}

// checkProxyArgs refuses a command line that names no server command after
// --, printing the help for a bare `mcptrail`.
func checkProxyArgs(cmd *cobra.Command, io *IOStreams, f *proxyFlags, args []string) error {
	if len(args) == 0 {
		// Help goes to stderr: when a client starts us, stdout is its protocol.
		cmd.SetOut(io.ErrOut)
		_ = cmd.Help()
		return &exitError{int(ExitUsage)}
	}
	switch dash := cmd.ArgsLenAtDash(); {
	case dash < 0:
		return unknownCommand(cmd, args[0])
	case dash > 0:
		return usagef("unexpected arguments before --: %q", args[:dash])
	}
	if f.killAfter <= 0 {
		return usagef("--kill-after must be positive, not %v", f.killAfter)
	}
	return nil
}

// runProxy runs the server command through the stdio tap, capturing the
// session as the flags and the configuration say.
func runProxy(opts *proxyOptions) error {
	fac, f, io, args := opts.Factory, &opts.flags, opts.IOStreams, opts.command
	red, err := f.settle(opts.fs, fac.Config)
	if err != nil {
		return err
	}
	// A secret argument must not name the session or its file.
	label := sessionLabel(f.label, args, red)
	start := io.Now()
	id := capture.NewSessionID()
	file, err := openCapture(fac, &f.tapFlags, start, label, id)
	if err != nil {
		return err
	}
	f.events.mcpcat.getenv = io.Getenv
	live, err := f.events.start(opts.ctx, io, file)
	if err != nil {
		closeQuietly(file)
		return err
	}

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, stopSignals()...) // signals_*.go
	defer signal.Stop(sigs)
	defer catchSIGPIPE()()

	sopts := &stdio.Options{
		Command: args,
		Stdin:   io.In, Stdout: io.Out, Stderr: io.ErrOut,
		Header:  capture.Record{SessionID: id, Label: label, ToolVersion: Version, PID: os.Getpid()},
		Now:     io.Now,
		Signals: sigs, KillAfter: f.killAfter,
		OnCaptureError: captureFailed(io),
	}
	if file != nil {
		sopts.Capture = file
		sopts.SpoolDir = filepath.Dir(file.Name()) // a huge frame waits next to its capture
	}
	if red != nil {
		sopts.Redact = red
	}
	if live != nil {
		sopts.Feed = live.feed
		sopts.BeforeEnd = live.notes
	}
	res, runErr := stdio.Run(opts.ctx, sopts)
	if live != nil {
		live.finish(io)
	}
	return proxyExit(io, res, closeCapture(fac, file, res == nil, runErr))
}

// closeCapture closes the capture file (nil with --no-capture) and returns
// runErr, or the closing error when runErr is nil. When the server never
// started the file is discarded instead: no empty session is left behind.
func closeCapture(fac *Factory, file *capture.File, notStarted bool, runErr error) error {
	io := fac.IOStreams
	switch {
	case file == nil:
	case notStarted:
		if err := file.Discard(); err != nil {
			printError(io.ErrOut, err)
		}
	default:
		if err := file.Close(); err != nil && runErr == nil {
			runErr = fmt.Errorf("closing capture %s: %w", file.Path(), reason(err))
		} else if err == nil {
			indexEnded(fac, file.Path()) // sessions_index.go
		}
	}
	return runErr
}

// captureFailed returns the taps' OnCaptureError: it says on stderr, as
// soon as the capture cannot be written (a full disk), that the traffic is
// still relayed and the loss will be counted.
func captureFailed(io *IOStreams) func(error) {
	return func(err error) {
		fmt.Fprintf(io.ErrOut, "mcptrail: capture write failed, still relaying (the loss is counted in a capture-gap note): %s\n",
			termtext.Escape(err.Error()))
	}
}

// openCapture creates the capture file the flags ask for; nil with
// --no-capture. A --capture path is expanded as a template, refused when
// it exists (unless --append or --force), and locked.
func openCapture(fac *Factory, f *tapFlags, start time.Time, label, id string) (*capture.File, error) {
	if f.noCapture {
		return nil, nil
	}
	mode, err := f.captureMode()
	if err != nil {
		return nil, err
	}
	var file *capture.File
	if f.capture != "" {
		path, err := expandCapturePath(f.capture, start, label, id, os.Getpid())
		if err != nil {
			return nil, err
		}
		file, err = capture.CreateFile(path, mode)
		if err != nil {
			return nil, captureHint(err)
		}
		return file, nil
	}
	state, err := fac.StateDir()
	if err != nil {
		return nil, captureHint(err)
	}
	file, err = capture.CreateSessionFile(capture.SessionsDir(state), start, label, id)
	if err != nil {
		return nil, captureHint(err)
	}
	return file, nil
}

// proxyExit maps a session's outcome to our exit: the server's status
// passes through; a capture problem is reported on stderr but does not
// change it. A server that could not start exits 127 (not found) or 126.
func proxyExit(io *IOStreams, res *stdio.Result, err error) error {
	if res == nil {
		printError(io.ErrOut, startError(err))
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return &exitError{int(ExitServerNotFound)}
		}
		return &exitError{int(ExitCannotRun)}
	}
	if err != nil {
		printError(io.ErrOut, err)
	}
	if res.ExitCode != 0 {
		return &exitError{res.ExitCode}
	}
	return nil
}

// tapFlags are the flags both taps take: where the capture goes, its label,
// redaction and the analytics sinks.
type tapFlags struct {
	capture   string
	label     string
	noCapture bool
	appendTo  bool // --append
	force     bool // --force
	redact    redactFlags
	events    eventsFlags // events_proxy.go
}

// settle checks the flags, fills what they leave unset from the
// configuration files and returns the redactor they ask for (nil for
// none). A capture path set in the working directory's .mcptrail.toml is
// refused, whatever the flags say, so the mistake is seen at once.
func (f *tapFlags) settle(fs *pflag.FlagSet, readConfig func() (*config, error)) (redact.Redactor, error) {
	if f.noCapture && f.capture != "" {
		return nil, usagef("--capture and --no-capture cannot be used together")
	}
	cfg, err := readConfig()
	if err != nil {
		return nil, err
	}
	if cfg.localCapture != "" {
		return nil, localCaptureError(cfg)
	}
	red, err := f.redact.redactor(fs, &cfg.Redact)
	if err != nil {
		return nil, err
	}
	if f.label == "" {
		f.label = cfg.Label
	}
	if f.capture == "" && !f.noCapture {
		f.capture = cfg.Capture
	}
	return red, nil
}
