package cli

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/transcript"
	"github.com/mcptrail/mcptrail/internal/tui"
	"github.com/mcptrail/mcptrail/internal/tui/source"
)

// demoTranscript is the demo's scripted conversation: 2026-07-28 MRTR
// elicitations (form accepted, url accepted, form declined, a chained
// operation), a tool error, a cancellation and its late result, a stray
// non-JSON stdout line, and a legacy 2025-11-25 exchange with a
// server-initiated elicitation.
//
//go:embed demo.transcript.jsonl
var demoTranscript string

// demoScale runs the demo's ~6.9 s of scripted think time in ~2.4 s.
const demoScale = 0.35

// demoOptions are the demo command's flags and what they settle to.
type demoOptions struct {
	scale float64
	wide  bool // the summary's tables whole
	noTUI bool // the summary even on a terminal
	red   redact.Redactor
	flags redactFlags
	reg   *finding.Registry
}

func newDemoCmd(fac *Factory) *cobra.Command {
	opts := demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo [--no-tui]",
		Short: "Play a scripted MCP session through mcptrail and show what it captured",
		Long: `Demo plays a scripted MCP client and server through the real stdio tap, with
no network and no setup, and writes the capture to the sessions directory like
any proxied session. The script asks the user six questions (forms and urls,
one declined) and plays three faults on purpose, so you can see how mcptrail
reports them: a stray line on stdout that is not JSON, a tool error, and a
result that arrives after its call was cancelled.

On a terminal the session opens in the terminal UI while it plays (q quits and
prints the summary); --no-tui, or output that is not a terminal, prints the
summary alone: the questions asked and their answers, the counts, the faults
and the commands to look further.

The --redact-* flags (and a [redact] table in .mcptrail.toml) scrub the
capture as they do the proxy's.`,
		Example: `  mcptrail demo
  mcptrail demo --no-tui --redact-answers`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("demo takes no arguments")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.scale < 0 {
				return usagef("--scale must not be negative")
			}
			var err error
			if opts.red, err = fac.Redactor(&opts.flags, cmd.Flags()); err != nil {
				return err
			}
			if opts.reg, err = fac.Rules(); err != nil {
				return err
			}
			return runDemo(cmd.Context(), fac, &opts)
		},
	}
	cmd.Flags().Float64Var(&opts.scale, "scale", demoScale, "multiply the script's delays by `X` (0 runs without delays)")
	_ = cmd.Flags().MarkHidden("scale")
	cmd.Flags().BoolVar(&opts.noTUI, "no-tui", false, "print the summary instead of opening the terminal UI")
	opts.flags.add(cmd.Flags(), "in the capture")
	addWideFlag(cmd.Flags(), &opts.wide)
	return cmd
}

// runDemo plays the demo through the tap into a new session file, on a
// terminal with the TUI following it, and prints its summary.
func runDemo(ctx context.Context, fac *Factory, opts *demoOptions) error {
	ios := fac.IOStreams
	script, err := transcript.Parse(strings.NewReader(demoTranscript))
	if err != nil {
		return fmt.Errorf("reading the demo script: %w", err)
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	state, err := fac.StateDir()
	if err != nil {
		return err
	}
	id := capture.NewSessionID()
	f, err := capture.CreateSessionFile(capture.SessionsDir(state), ios.Now(), "demo", id)
	if err != nil {
		return err
	}
	path := f.Name()
	tapOpts := &stdio.Options{
		Command: []string{exe, replayServerCmd, demoScriptName, "--scale", strconv.FormatFloat(opts.scale, 'g', -1, 64)},
		Capture: f,
		Header:  capture.Record{SessionID: id, Label: "demo", ToolVersion: Version},
		Now:     ios.Now,
	}
	if opts.red != nil {
		tapOpts.Redact = opts.red
	}
	play := func() error {
		err := playThroughTap(ctx, script, opts.scale, tapOpts)
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("writing capture: %w", cerr)
		}
		if err != nil {
			return fmt.Errorf("demo: %w (capture: %s)", err, path)
		}
		return nil
	}
	if !ios.InIsTerminal || !ios.OutIsTerminal || opts.noTUI {
		if err := play(); err != nil {
			return err
		}
		return printDemoSummary(ios, path, opts)
	}
	playErr, tuiErr := playInTUI(ctx, fac, opts, path, id, play)
	if playErr != nil {
		return errors.Join(playErr, tuiErr)
	}
	return errors.Join(printDemoSummary(ios, path, opts), tuiErr)
}

// playInTUI plays the demo while the TUI follows its capture, as open
// does; once the user quits, it waits for the script to end. A TUI that
// fails still leaves the demo played and its summary printed.
func playInTUI(ctx context.Context, fac *Factory, opts *demoOptions, path, id string, play func() error) (playErr, tuiErr error) {
	played := make(chan error, 1)
	go func() { played <- play() }()
	tuiErr = tui.Run(ctx, tui.Options{
		Source:  &source.Options{Redactor: opts.red, Rules: opts.reg},
		Path:    path,
		ID:      id,
		Export:  tuiExport(fac, opts.flags, opts.red, opts.reg),
		Streams: tuiStreams(fac.IOStreams),
	})
	select {
	case playErr = <-played:
	default:
		fmt.Fprintln(fac.IOStreams.ErrOut, "mcptrail: the demo is still playing; its summary follows when it ends")
		playErr = <-played
	}
	return playErr, tuiErr
}

// playThroughTap runs the tap with opts and plays the client side of
// script against it in this process. The server's stderr is kept to
// explain a failure.
func playThroughTap(ctx context.Context, script *transcript.Transcript, scale float64, opts *stdio.Options) error {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	opts.Stdin, opts.Stdout, opts.Stderr = inR, outW, &stderr
	played := make(chan error, 1)
	go func() {
		err := script.Play(ctx, inW, outR, &transcript.Options{Scale: scale})
		_, _ = io.Copy(io.Discard, outR) // never leave the tap blocked on stdout
		played <- err
	}()
	res, err := stdio.Run(ctx, opts)
	inR.CloseWithError(errors.New("the tap has stopped"))
	outW.Close()
	playErr := <-played
	switch {
	case err != nil:
		return err
	case res.ExitCode != 0:
		return fmt.Errorf("the scripted server exited with status %d: %s", res.ExitCode, strings.TrimSpace(stderr.String()))
	case playErr != nil:
		return fmt.Errorf("the scripted client: %w", playErr)
	}
	return nil
}

// printDemoSummary reads the demo's capture back and prints what a
// newcomer reads first: the questions asked and their answers, the
// counts, the scripted faults, where the capture is and what to run next.
func printDemoSummary(ios *IOStreams, path string, opts *demoOptions) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	s, err := session.Load(r, &session.Options{Rules: opts.reg})
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	snap := s.Snapshot
	out := ios.Out
	fmt.Fprintln(out, "mcptrail demo: a scripted MCP client and server, played through mcptrail.")
	fmt.Fprintf(out, "\nWhat the server asked the user (%d questions):\n", snap.Ledger.Len())
	if err := demoLedger(snap, ios.colorOn()).Render(out, ios.tableWidth(opts.wide)); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%s\n", demoCounts(snap))
	if faults := demoFaults(snap); faults != "" {
		fmt.Fprintf(out, "Scripted faults, played so you see how mcptrail reports them:\n  %s\n", faults)
	}
	if snap.Session.Redacted {
		fmt.Fprintln(out, "The capture is redacted.")
	}
	fmt.Fprintf(out, "\nCapture: %s\n", termtext.Escape(path))
	fmt.Fprintf(out, `
Next:
  mcptrail open                            watch the session in the terminal UI
  mcptrail ledger                          every question and its answer
  mcptrail export -T html -o demo.html     a report to share
They read the newest session; add the id %s once there are others.
`, termtext.Escape(shortID(snap.Session.ID)))
	return nil
}

// demoLedger is the ledger as the summary shows it: the tool that asked,
// the mode, the question and the answer.
func demoLedger(snap *store.Snapshot, color bool) *termtable.Table {
	t := &termtable.Table{Indent: "  ", Color: color, Columns: []termtable.Column{
		{Header: "TOOL", Cut: true, Min: 20},
		{Header: "MODE"},
		{Header: "ASKED", Cut: true, Min: 20},
		{Header: "ANSWER"},
	}}
	for _, row := range snap.Ledger.Slice() {
		tool := row.Root.Target
		if tool == "" {
			tool = row.Root.Method
		}
		answer := row.Action
		if answer == "" {
			answer = row.Status
		}
		t.Add(termtable.Cell{Text: tool}, termtable.Cell{Text: row.Mode}, termtable.Cell{Text: row.Message},
			termtable.Cell{Text: answer, Style: termtable.Action(answer)})
	}
	return t
}

// demoCounts is the summary's line of counts: calls as every view counts
// them (Snapshot.CountCalls), the retries as rounds, the server's own
// requests apart, and the calls that failed.
func demoCounts(snap *store.Snapshot) string {
	calls, server := snap.CountCalls()
	rounds := 0
	errs := snap.Summary.Errors()
	for _, c := range snap.Calls.Slice() {
		if c.Dir != capture.S2C && c.Operation >= 0 && c.Round > 1 {
			rounds++
		}
	}
	var b strings.Builder
	b.WriteString(plural(calls, "call", "calls"))
	if rounds > 0 {
		fmt.Fprintf(&b, " (%d more %s)", rounds, pluralWord(rounds, "round", "rounds"))
	}
	fmt.Fprintf(&b, ", %s, %s, %s", plural(server, "server request", "server requests"),
		plural(errs, "error", "errors"), plural(snap.Findings.Len(), "finding", "findings"))
	return b.String()
}

// demoFaults lists the faults the script plays, as the capture shows
// them: frames that are not JSON-RPC, tool errors, late results.
func demoFaults(snap *store.Snapshot) string {
	invalid, toolErrs, late := 0, 0, 0
	for _, f := range snap.Findings.Slice() {
		if f.Rule == "invalid-frame" {
			invalid++
		}
	}
	for _, c := range snap.Calls.Slice() {
		if c.Status == "tool-error" {
			toolErrs++
		}
		if c.Late {
			late++
		}
	}
	var parts []string
	if invalid > 0 {
		parts = append(parts, plural(invalid, "stray non-JSON line", "stray non-JSON lines")+" on stdout")
	}
	if toolErrs > 0 {
		parts = append(parts, plural(toolErrs, "tool error", "tool errors"))
	}
	if late > 0 {
		parts = append(parts, plural(late, "late result", "late results")+" after a cancel")
	}
	return strings.Join(parts, ", ")
}

// plural is n and the word for it.
func plural(n int, one, many string) string {
	return strconv.Itoa(n) + " " + pluralWord(n, one, many)
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
