package cli

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/replay"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

const replayLong = `Replay drives a real MCP server with the client side of a capture and
shows what changed.

It starts SERVER (the command after --) through the stdio tap, so the
replay writes a new capture of its own (its path is printed on stderr),
and sends it what the recorded client sent: the handshake of the
capture's era (initialize or server/discover), then each recorded client
call in order, one at a time. When the server asks for input, replay
answers with the recorded answers: an MRTR input_required result is
retried with the server's new requestState and the recorded
inputResponses for the same keys; a legacy server-initiated
elicitation/create gets the recorded response. A question the recording
has no answer for is cancelled and reported.

Then it compares the two sessions and prints what differs: results
changed (a JSON diff with paths), errors that appeared or went away,
elicitations asked differently, and calls that took --slower-than times
as long and 50ms longer or more (0 compares no duration; the handshake is
not timed: it waits for the server to start). Calls it did not
send, and the recorded client's own findings, are not counted. It exits 1
when anything differs or a question went unanswered, 0 when nothing did.

A tools/call is sent only when its tool is annotated readOnlyHint: true
or destructiveHint: false. Any other tool may be destructive (MCP assumes
so of a tool without annotations): its calls are skipped, each with the
reason on stdout, unless --allow-destructive. The server's own tools/list
decides: when a call is due and the server has not listed the tool yet,
replay asks it for its tools/list (every page; these requests are not
compared); a tool the server does not list is judged by the capture's
tools/list. A member given twice counts as its last, as JavaScript
clients read it. --dry-run judges by the capture alone.
--only tool:NAME (repeatable) sends only those tool calls (with the
handshake and the other methods).
Calls the recorded client cancelled or never saw answered are skipped
too; a redacted capture is refused unless --allow-redacted. --dry-run
lists what would be sent and starts nothing. --timeout bounds each wait
for the server's answer; a server that hangs or exits mid-replay ends the
replay with an error (exit 1), and the server is stopped.

With --target URL instead of -- SERVER, replay drives a Streamable HTTP
server: the traffic goes through the HTTP tap, run in this process on a
loopback port of its own, which writes the new capture as mcptrail http
does. Each message is a POST (Accept: application/json,
text/event-stream) whose JSON or SSE answer is read; a legacy server's
elicitation/create on a call's stream is answered with a POST; the
Mcp-Session-Id of the initialize answer and the negotiated
MCP-Protocol-Version are sent on later requests, and the session is
DELETEd at the end (a 2026-07-28 server is stateless: no session); a
capture of several client sessions, one after another, replays each on
its own (each initialize opens a new session, the one before it is
DELETEd). A POST the server refuses with an HTTP error and a JSON-RPC
error of null id gets that error as its answer, and a server/discover
probe refused with a bare status is the legacy server's answer to it: the
replay goes on with the recorded fallback initialize, as the client did. A
2026-07-28 request carries the Mcp-Method and Mcp-Name mirrors, and a
tools/call the Mcp-Param-* headers of its arguments annotated
x-mcp-header, as a client of this server would send them: those the
tool's inputSchema in the server's tools/list answer asks for; before
the server has listed the tool, the ones the recording kept when it was
made over HTTP, else those of the capture's catalog. A server that
cannot be reached ends the replay with an error (exit 1).
--header 'Name: value' (repeatable) adds a header to every request, such
as Authorization: Bearer TOKEN for a server that wants auth; the new
capture keeps it as it keeps a client's (Authorization as its scheme
only, most other headers not at all) and replay never prints its value.`

// replayFlags are the replay command's flags.
type replayFlags struct {
	only             []string
	dryRun           bool
	allowDestructive bool
	allowRedacted    bool
	slowerThan       string
	timeout          time.Duration
	capture          string
	session          string
	target           string
	targetURL        *url.URL // --target, parsed
	header           []string
	requestHeader    http.Header // --header, parsed
}

func newReplayCmd(ios *IOStreams) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay CAPTURE [flags] (-- SERVER [ARGS...] | --target URL)",
		Short: "Replay a capture's client calls against a real server and show what changed",
		Long:  replayLong,
		Example: `  mcptrail replay session.jsonl -- node build/index.js
  mcptrail replay 3f2a --only tool:search --slower-than 1.5x -- ./server
  mcptrail replay session.jsonl --target http://127.0.0.1:8080/mcp
  mcptrail replay session.jsonl --dry-run`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd, ios, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.only, "only", nil, "send only the calls to the tool named by `tool:NAME` (repeatable); other methods are still sent")
	fl.BoolVar(&f.dryRun, "dry-run", false, "list what would be sent; start no server")
	fl.BoolVar(&f.allowDestructive, "allow-destructive", false, "also send calls to tools that may be destructive (not annotated readOnlyHint: true or destructiveHint: false)")
	fl.BoolVar(&f.allowRedacted, "allow-redacted", false, "replay a redacted capture (the server gets the [REDACTED] placeholders)")
	fl.StringVar(&f.slowerThan, "slower-than", "2x", "report calls that took `FACTOR` times as long as recorded or more (2x or 2; 0: compare no duration)")
	fl.DurationVar(&f.timeout, "timeout", replay.DefaultTimeout, "give up when the server has not answered a request in `DURATION`")
	fl.StringVar(&f.capture, "capture", "", "write the new capture to `PATH` instead of the sessions directory")
	fl.StringVar(&f.session, "session", "", "replay session `ID` of a capture file that holds several (default: the last)")
	fl.StringVar(&f.target, "target", "", "replay against the Streamable HTTP server at `URL` instead of a command after --")
	fl.StringArrayVar(&f.header, "header", nil, "send the header `'Name: value'` with every request to --target (repeatable; for auth such as Authorization: Bearer ...)")
	return cmd
}

// replayArgs splits the command line into the capture and the server
// command.
func replayArgs(cmd *cobra.Command, f *replayFlags, args []string) (string, []string, error) {
	dash := cmd.ArgsLenAtDash()
	before, server := args, []string(nil)
	if dash >= 0 {
		before, server = args[:dash], args[dash:]
	}
	switch {
	case len(before) != 1:
		return "", nil, usagef("replay takes one capture (a file or a session id) before --, not %d arguments", len(before))
	case len(server) > 0 && f.target != "":
		return "", nil, usagef("replay takes the server after -- or --target URL, not both")
	case len(server) == 0 && f.target == "" && !f.dryRun:
		return "", nil, usagef("replay needs the server to run after -- or --target URL: mcptrail replay %s -- SERVER [ARGS...]", termtext.Escape(before[0]))
	case f.timeout <= 0:
		return "", nil, usagef("--timeout must be positive, not %v", f.timeout)
	}
	if len(f.header) > 0 && f.target == "" {
		return "", nil, usagef("--header applies to an HTTP server (--target URL); a server after -- is reached over stdio")
	}
	if f.target != "" {
		u, err := parseTarget(f.target)
		if err != nil {
			return "", nil, err
		}
		f.targetURL = u
	}
	h, err := parseRequestHeaders(f.header)
	if err != nil {
		return "", nil, err
	}
	f.requestHeader = h
	return before[0], server, nil
}

// onlyTools reads the --only values (tool:NAME) as tool names.
func onlyTools(only []string) ([]string, error) {
	var names []string
	for _, o := range only {
		name, ok := strings.CutPrefix(o, "tool:")
		if !ok || name == "" {
			return nil, usagef("--only %q: want tool:NAME", o)
		}
		names = append(names, name)
	}
	return names, nil
}

func runReplay(cmd *cobra.Command, ios *IOStreams, f *replayFlags, args []string) error {
	arg, server, err := replayArgs(cmd, f, args)
	if err != nil {
		return err
	}
	only, err := onlyTools(f.only)
	if err != nil {
		return err
	}
	factor, err := parseFactor(f.slowerThan)
	if err != nil {
		return err
	}
	reg, err := readRules(ios.Getenv)
	if err != nil {
		return err
	}
	if arg == "-" {
		return usagef("replay reads a capture file or a session id, not standard input")
	}
	orig, closeOrig, err := readRulesSnapshot(ios, arg, f.session, reg)
	if err != nil {
		return err
	}
	defer closeOrig()
	plan, err := replay.NewPlan(orig, &replay.PlanOptions{Only: only, AllowDestructive: f.allowDestructive, AllowRedacted: f.allowRedacted})
	if errors.Is(err, replay.ErrNothingToReplay) && plan != nil {
		_ = plan.WriteSkipped(ios.ErrOut)
	}
	if err != nil {
		return badInput(fmt.Errorf("replaying %s: %w", termtext.Escape(arg), err))
	}
	if f.dryRun {
		return plan.WriteText(ios.Out)
	}
	return replayStdio(cmd, ios, f, orig, plan, server, diff.Options{SlowerThan: factor, MinSlowerMS: minSlowerMS}, reg)
}

// openReplayCapture creates the new capture: --capture PATH (never an
// existing file), else a session file in the state directory.
func openReplayCapture(ios *IOStreams, path string, start time.Time, label, id string) (*capture.File, error) {
	if path != "" {
		file, err := capture.CreateFile(path, capture.Exclusive)
		if err != nil {
			return nil, captureHint(err)
		}
		return file, nil
	}
	state, err := capture.StateDir(ios.Getenv)
	if err != nil {
		return nil, captureHint(err)
	}
	file, err := capture.CreateSessionFile(capture.SessionsDir(state), start, label, id)
	if err != nil {
		return nil, captureHint(err)
	}
	return file, nil
}

// replayStdio runs the plan against the server through the stdio tap (the
// HTTP tap with --target), then compares the new capture with the original.
func replayStdio(cmd *cobra.Command, ios *IOStreams, f *replayFlags, orig *store.Snapshot, plan *replay.Plan, server []string, dopts diff.Options, reg *finding.Registry) error {
	label := orig.Session.Label
	if label == "" {
		label = "replay"
	}
	id := capture.NewSessionID()
	file, err := openReplayCapture(ios, f.capture, ios.Now(), label, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "mcptrail: replaying %d calls; capture: %s\n", plan.Sent(), termtext.Escape(file.Path()))
	run := replay.Stdio
	if f.targetURL != nil {
		run = replay.HTTP
	}
	res, runErr := run(cmd.Context(), plan, &replay.Options{
		Command: server, Target: f.targetURL, Capture: file, SpoolDir: filepath.Dir(file.Path()),
		Header: capture.Record{SessionID: id, Label: label, ToolVersion: Version, PID: os.Getpid()},
		Now:    ios.Now, Timeout: f.timeout, Stderr: ios.ErrOut, RequestHeader: f.requestHeader,
	})
	if res == nil {
		// The server never started: no session is left behind, as with the proxy.
		if err := file.Discard(); err != nil {
			printError(ios.ErrOut, err)
		}
		return proxyExit(ios, nil, runErr)
	}
	if err := file.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("closing capture %s: %w", file.Path(), reason(err))
	}
	_ = plan.WriteSkipped(ios.Out)
	_ = res.WriteText(ios.Out)
	if runErr != nil {
		return fmt.Errorf("replay: %w (capture: %s)", runErr, termtext.Escape(file.Path()))
	}
	differs, err := compareReplay(ios, orig, plan, res, file.Path(), dopts, reg)
	if err != nil {
		return err
	}
	if differs || len(res.Unanswered) > 0 {
		return &exitError{int(ExitDiffers)}
	}
	return nil
}
