package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
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

A server may vary some values by itself: a fresh id, a UUID, a timestamp,
a nonce. To tell those from a change, replay runs the server twice (as
Twitter's Diffy does): the second run, into a capture of its own that is
removed once read, sends the same calls, and whatever differs between the
two runs (a result member by JSON Pointer, a call's outcome, a finding, a
question, a definition) is noise, not compared with the recording, and
listed under "volatile" on stdout. So a replay costs two runs of the
server, and a server that changes state may show a real change as
volatile; --no-learn runs it once and reports every difference. The
second run sends no call that may be destructive, even with
--allow-destructive (which allows each such call once): those calls are
compared with nothing learned of them.
--ignore PATH (repeatable; a JSON Pointer, as diff --ignore takes it)
leaves result changes at or under PATH uncompared in every call; the
[replay] table of the configuration files can list more (ignore =
["/structuredContent/createdAt"]), the working directory's .mcptrail.toml
adding to the user's. --json writes the comparison as one JSON document
(the diff report, what was volatile, the unanswered questions); the
lines of skipped and unanswered calls then go to stderr.

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
replay with an error (exit 1), and the server is stopped. Once every call
was answered, the server's stdin is closed; a server that is still
running --kill-after (5s) later gets SIGTERM, and SIGKILL --kill-after
after that, as the proxy stops a server whose client went away.

A request of the server's own (roots/list, sampling/createMessage,
elicitation/create) gets the recorded answer: the one the recorded client
gave during the same call, else any recorded answer to a request of the
same method and params (without _meta); one the recording has no answer
for is refused at once (-32601; an elicitation is cancelled) and
reported. When the recorded server asked more of them than the replay's
has once the last call is answered (a server that asks on a timer),
replay waits for them until the time the recorded one asked its last
(counted from the start), plus a second.

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
	killAfter        time.Duration
	capture          string
	session          string
	target           string
	targetURL        *url.URL // --target, parsed
	header           []string
	requestHeader    http.Header // --header, parsed
	ignore           []string
	noLearn          bool
	asJSON           bool
}

// replayOptions are what the replay command runs with: its dependencies,
// its flags and the command line's capture and server.
type replayOptions struct {
	*Factory
	ctx    context.Context
	flags  replayFlags
	input  string   // the capture: a file or a session id
	server []string // the server command after --; nil with --target or --dry-run
}

// newReplayCmd returns the replay command; runF, when not nil, runs
// instead of runReplay.
func newReplayCmd(fac *Factory, runF func(*replayOptions) error) *cobra.Command {
	opts := &replayOptions{Factory: fac}
	f := &opts.flags
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
			var err error
			if opts.input, opts.server, err = replayArgs(cmd, f, args); err != nil {
				return err
			}
			opts.ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runReplay(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.only, "only", nil, "send only the calls to the tool named by `tool:NAME` (repeatable); other methods are still sent")
	fl.BoolVar(&f.dryRun, "dry-run", false, "list what would be sent; start no server")
	fl.BoolVar(&f.allowDestructive, "allow-destructive", false, "also send calls to tools that may be destructive (not annotated readOnlyHint: true or destructiveHint: false)")
	fl.BoolVar(&f.allowRedacted, "allow-redacted", false, "replay a redacted capture (the server gets the [REDACTED] placeholders)")
	fl.StringVar(&f.slowerThan, "slower-than", "2x", "report calls that took `FACTOR` times as long as recorded or more (2x or 2; 0: compare no duration)")
	fl.DurationVar(&f.timeout, "timeout", replay.DefaultTimeout, "give up when the server has not answered a request in `DURATION`")
	fl.DurationVar(&f.killAfter, "kill-after", stdio.DefaultKillAfter, "once the replay is done, give the server `DURATION` to exit on the end of its input, then as long after a SIGTERM before killing it")
	fl.StringVar(&f.capture, "capture", "", "write the new capture to `PATH` instead of the sessions directory")
	fl.StringVar(&f.session, "session", "", "replay session `ID` of a capture file that holds several (default: the last)")
	fl.StringVar(&f.target, "target", "", "replay against the Streamable HTTP server at `URL` instead of a command after --")
	fl.StringArrayVar(&f.ignore, "ignore", nil, "do not compare result changes at or under the JSON Pointer `PATH` (repeatable; adds to .mcptrail.toml's [replay] ignore)")
	fl.BoolVar(&f.noLearn, "no-learn", false, "run the server once: learn nothing of what it varies by itself (each difference from the recording is reported)")
	fl.StringArrayVar(&f.header, "header", nil, "send the header `'Name: value'` with every request to --target (repeatable; for auth such as Authorization: Bearer ...)")
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &f.asJSON, JSONHelp: "write the comparison as one JSON document, docs/replay.md; skipped and unanswered lines go to stderr"})
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
	case f.dryRun && f.asJSON:
		return "", nil, usagef("--dry-run lists its plan as text; --json writes a comparison, which a dry run has none of: give one")
	case f.timeout <= 0:
		return "", nil, usagef("--timeout must be positive, not %v", f.timeout)
	case f.killAfter <= 0:
		return "", nil, usagef("--kill-after must be positive, not %v", f.killAfter)
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

// runReplay replays the capture opts names against its server (or lists
// the plan, with --dry-run) and prints what changed.
func runReplay(opts *replayOptions) error {
	fac, f, ios := opts.Factory, &opts.flags, opts.IOStreams
	arg, server := opts.input, opts.server
	only, err := onlyTools(f.only)
	if err != nil {
		return err
	}
	factor, err := parseFactor(f.slowerThan)
	if err != nil {
		return err
	}
	cfg, err := fac.Config()
	if err != nil {
		return err
	}
	ignore, err := replayIgnore(cfg, f.ignore)
	if err != nil {
		return err
	}
	reg, err := fac.Rules()
	if err != nil {
		return err
	}
	if arg == "-" {
		return usagef("replay reads a capture file or a session id, not standard input")
	}
	orig, closeOrig, err := readRulesSnapshot(fac, arg, f.session, reg)
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
	// The learning run never sends a call the user allowed only with
	// --allow-destructive: it would repeat it. Those calls are compared
	// with nothing learned of them.
	learnPlan := plan
	if f.allowDestructive && !f.noLearn {
		learnPlan, err = replay.NewPlan(orig, &replay.PlanOptions{Only: only, AllowRedacted: f.allowRedacted})
		if err != nil {
			learnPlan = nil
		}
	}
	return replayStdio(opts, orig, plan, learnPlan, server, diff.Options{SlowerThan: factor, MinSlowerMS: minSlowerMS, IgnorePaths: ignore}, reg)
}

// openReplayCapture creates the new capture: --capture PATH (never an
// existing file), else a session file in the state directory.
func openReplayCapture(fac *Factory, path string, start time.Time, label, id string) (*capture.File, error) {
	if path != "" {
		file, err := capture.CreateFile(path, capture.Exclusive)
		if err != nil {
			return nil, captureHint(err)
		}
		return file, nil
	}
	state, err := fac.StateDir()
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
// HTTP tap with --target), then, unless --no-learn, once more to learn
// what the server varies by itself, and compares the new capture with the
// original.
func replayStdio(opts *replayOptions, orig *store.Snapshot, plan, learnPlan *replay.Plan, server []string, dopts diff.Options, reg *finding.Registry) error {
	fac, f, ios := opts.Factory, &opts.flags, opts.IOStreams
	label := orig.Session.Label
	if label == "" {
		label = "replay"
	}
	id := capture.NewSessionID()
	file, err := openReplayCapture(fac, f.capture, ios.Now(), label, id)
	if err != nil {
		return err
	}
	learn := !f.noLearn && learnPlan != nil
	twice := ""
	switch {
	case learn && f.allowDestructive:
		twice = " twice (the second run learns what the server varies by itself, and sends no call that may be destructive: --allow-destructive allows each once; --no-learn runs the server once)"
	case learn:
		twice = " twice (the second run learns what the server varies by itself; --no-learn runs it once)"
	case !f.noLearn:
		twice = " once (every call left may be destructive, and --allow-destructive allows each once: nothing is learned as volatile)"
	}
	fmt.Fprintf(ios.ErrOut, "mcptrail: replaying %d calls%s; capture: %s\n", plan.Sent(), twice, termtext.Escape(file.Path()))
	res, runErr := runReplayOnce(opts, plan, server, file, id, label, ios.ErrOut)
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
	lines := ios.Out
	if f.asJSON {
		lines = ios.ErrOut
	}
	_ = plan.WriteSkipped(lines)
	_ = res.WriteText(lines)
	if runErr != nil {
		return fmt.Errorf("replay: %w (capture: %s)", runErr, termtext.Escape(file.Path()))
	}
	var noise *replay.Noise
	if learn {
		noise = learnNoise(opts, learnPlan, server, file.Path(), label, dopts, reg)
	}
	differs, err := compareReplay(fac, orig, plan, res, file.Path(), dopts, reg, noise, f.asJSON)
	if err != nil {
		return err
	}
	if differs || len(res.Unanswered) > 0 {
		return &exitError{int(ExitDiffers)}
	}
	return nil
}

// runReplayOnce runs the plan once against the server, into file.
func runReplayOnce(opts *replayOptions, plan *replay.Plan, server []string, file *capture.File, id, label string, stderr io.Writer) (*replay.Result, error) {
	f, ios := &opts.flags, opts.IOStreams
	run := replay.Stdio
	if f.targetURL != nil {
		run = replay.HTTP
	}
	return run(opts.ctx, plan, &replay.Options{
		Command: server, Target: f.targetURL, Capture: file, SpoolDir: filepath.Dir(file.Path()),
		Header: capture.Record{SessionID: id, Label: label, ToolVersion: Version, PID: os.Getpid()},
		Now:    ios.Now, Timeout: f.timeout, KillAfter: f.killAfter, Stderr: stderr, RequestHeader: f.requestHeader,
	})
}

// learnNoise runs the plan a second time, into a capture of its own
// beside the first (removed once read), and returns what differed between
// the two runs (replay.Learn); nil, with a warning, when the second run
// failed: then nothing is treated as noise.
func learnNoise(opts *replayOptions, plan *replay.Plan, server []string, first, label string, dopts diff.Options, reg *finding.Registry) *replay.Noise {
	fac, f, ios := opts.Factory, &opts.flags, opts.IOStreams
	id := capture.NewSessionID()
	path := filepath.Join(filepath.Dir(first), "."+id+".learn.jsonl")
	file, err := capture.CreateFile(path, capture.Exclusive)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "mcptrail: the learning run cannot write its capture (%s): nothing is treated as volatile\n", termtext.Escape(reason(err).Error()))
		return nil
	}
	defer func() { _ = file.Discard() }()
	res, err := runReplayOnce(opts, plan, server, file, id, label, io.Discard)
	if res == nil || err != nil {
		fmt.Fprintf(ios.ErrOut, "mcptrail: the learning run failed (%s): nothing is treated as volatile\n", termtext.Escape(fmt.Sprint(err)))
		return nil
	}
	a, closeA, err := readRulesSnapshot(fac, first, "", reg)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "mcptrail: reading the first run: %s: nothing is treated as volatile\n", termtext.Escape(err.Error()))
		return nil
	}
	defer closeA()
	b, closeB, err := readRulesSnapshot(fac, path, "", reg)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "mcptrail: reading the learning run: %s: nothing is treated as volatile\n", termtext.Escape(err.Error()))
		return nil
	}
	defer closeB()
	n, err := replay.Learn(a, b, dopts)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "mcptrail: comparing the learning run: %s: nothing is treated as volatile\n", termtext.Escape(err.Error()))
		return nil
	}
	if f.allowDestructive {
		n.Matched() // the learning run's plan left the destructive calls out
	}
	return n
}
