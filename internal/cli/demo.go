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
	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/transcript"
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

func newDemoCmd(fac *Factory) *cobra.Command {
	var scale float64
	var wide bool
	var red redactFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a scripted MCP session through the tap and show what mcptrail sees",
		Long: `Demo runs a scripted MCP client and a scripted MCP server through the real
stdio tap, with no network and no setup. It writes a capture to the state
directory, like any proxied session, and prints its summary. The --redact-*
flags (and a [redact] table in .mcptrail.toml) scrub the capture as they
do the proxy's.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("demo takes no arguments")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if scale < 0 {
				return usagef("--scale must not be negative")
			}
			r, err := fac.Redactor(&red, cmd.Flags())
			if err != nil {
				return err
			}
			reg, err := fac.Rules()
			if err != nil {
				return err
			}
			return runDemo(cmd.Context(), fac, scale, r, reg, wide)
		},
	}
	cmd.Flags().Float64Var(&scale, "scale", demoScale, "multiply the script's delays by `X` (0 runs without delays)")
	_ = cmd.Flags().MarkHidden("scale")
	red.add(cmd.Flags(), "in the capture")
	addWideFlag(cmd.Flags(), &wide)
	return cmd
}

// runDemo plays the demo through the tap, redacting the capture with red
// when it is not nil, and grading the summary's findings with reg; wide
// prints the summary's tables whole.
func runDemo(ctx context.Context, fac *Factory, scale float64, red redact.Redactor, reg *finding.Registry, wide bool) error {
	ios := fac.IOStreams
	script, err := transcript.Parse(strings.NewReader(demoTranscript))
	if err != nil {
		return fmt.Errorf("reading the demo script: %w", err)
	}
	scriptPath, err := writeTempScript()
	if err != nil {
		return err
	}
	defer os.Remove(scriptPath)
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
	fmt.Fprintf(ios.Out, "Running a scripted MCP client and server through the mcptrail tap...\n\n")
	command := []string{exe, replayServerCmd, scriptPath, "--scale", strconv.FormatFloat(scale, 'g', -1, 64)}
	opts := &stdio.Options{
		Command: command,
		Capture: f,
		Header:  capture.Record{SessionID: id, Label: "demo", ToolVersion: Version},
		Now:     ios.Now,
	}
	if red != nil {
		opts.Redact = red
	}
	runErr := playThroughTap(ctx, ios, script, scale, opts)
	if err := f.Close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("writing capture: %w", err)
	}
	if runErr != nil {
		return fmt.Errorf("demo: %w (capture: %s)", runErr, path)
	}
	return printDemoSummary(ios, path, id, reg, wide)
}

// playThroughTap runs the tap with opts and plays the client side of
// script against it in this process. The server's stderr is kept to
// explain a failure.
func playThroughTap(ctx context.Context, ios *IOStreams, script *transcript.Transcript, scale float64, opts *stdio.Options) error {
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

func writeTempScript() (string, error) {
	f, err := os.CreateTemp("", "mcptrail-demo-*.transcript.jsonl")
	if err != nil {
		return "", fmt.Errorf("writing the demo script: %w", err)
	}
	if _, err := f.WriteString(demoTranscript); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("writing the demo script: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing the demo script: %w", err)
	}
	return f.Name(), nil
}

func printDemoSummary(ios *IOStreams, path, id string, reg *finding.Registry, wide bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	s, err := session.Load(r, &session.Options{Rules: reg})
	if err != nil {
		return fmt.Errorf("reading the demo capture: %w", err)
	}
	snap := s.Snapshot
	if err := textexport.SummaryLayout(ios.Out, snap, ios.textLayout(wide)); err != nil {
		return err
	}
	path, id = termtext.Escape(path), termtext.Escape(id)
	fmt.Fprintf(ios.Out, "\ncapture: %s\nEvery frame, as text or JSON:\n  mcptrail export -T text %s\n  mcptrail export %s\n", path, id, id)
	return nil
}
