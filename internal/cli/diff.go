package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// ExitDiffers: diff found a difference. It is 1, as ExitError, for diff
// only: scripts read 1 as "the sessions differ".
const ExitDiffers ExitCode = 1

// diffOptions are the diff command's flags.
type diffOptions struct {
	asJSON     bool
	slowerThan string
	ignore     []string
}

func newDiffCmd(fac *Factory) *cobra.Command {
	opts := diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff [--json] A B",
		Short: "Compare two sessions: catalog, calls, results, errors, ledger, findings, latency; exit 1 when they differ",
		Long: `Diff compares session A (the older) with session B. A and B are session ids
(or unique prefixes) in the state directory, capture files, or - (standard
input, for one of them); a file that holds several sessions gives its last.

It prints the catalog definitions added, removed or changed (by definition
hash; a changed tool also says what changed as the drift rules of check
--tools-baseline name it); the client calls matched by method, target and arguments (ids are
ignored, order only pairs calls that are otherwise alike; an MRTR operation
is one call), with each changed result member by JSON Pointer, the errors
that appeared or went away, and the calls only one side made; the
elicitation questions added, removed, reworded or answered differently (no
answer's value is ever shown); the findings of the rules new in B and gone
from A (matched by rule and call, .mcptrail.toml's [rules] apply); and the
methods and tools whose p50 latency at least doubled. --slower-than 2x
sets that factor and also reports each call whose duration (an MRTR
operation's tool time) at least doubled; a call or p50 counts as slower
only when it also took 50ms longer or more (as replay judges it: a few
milliseconds that doubled are the machine's jitter), and the handshake
(initialize, server/discover: on stdio it waits for the server to start)
never does; durations print rounded (47.5ms); a faster call or p50 is not a
difference and is not listed (--json keeps every changed p50, with a
slower flag); 0 compares no duration. --json writes the report as one JSON document
(docs/diff.md). Exit codes: 0 the sessions are alike, 1 they differ, 2 usage,
3 a session could not be read.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("diff takes two sessions, A and B (ids, prefixes, paths or -), got %d arguments", len(args))
			}
			if args[0] == "-" && args[1] == "-" {
				return usagef("diff can read only one of A and B from standard input")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			factor, err := parseFactor(opts.slowerThan)
			if err != nil {
				return err
			}
			dopts := diff.Options{SlowerThan: factor, MinSlowerMS: diff.DefaultMinSlowerMS, IgnorePaths: opts.ignore}
			return runDiff(fac, &opts, dopts, args[0], args[1])
		},
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= 2 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// A path is an argument too: the shell completes files as well.
		return sessionCompletions(fac, prefix), cobra.ShellCompDirectiveDefault
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.slowerThan, "slower-than", "2x", "report calls and p50s that grew by the `FACTOR` or more (0: compare no duration)")
	fl.StringArrayVar(&opts.ignore, "ignore", nil, "ignore result changes at or under the JSON Pointer `PATH` (repeatable)")
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &opts.asJSON, JSONHelp: "write the report as JSON"})
	return cmd
}

// parseFactor reads --slower-than: a factor such as 2, 2x or 1.5x; 0
// turns duration comparison off.
func parseFactor(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "x"), 64)
	if err != nil || f < 0 || f > 0 && f < 1 {
		return 0, usagef("--slower-than %q: want a factor of 1 or more such as 2x, or 0", s)
	}
	return f, nil
}

// runDiff loads both sessions, compares them and prints the report.
func runDiff(fac *Factory, o *diffOptions, dopts diff.Options, argA, argB string) error {
	ios := fac.IOStreams
	defer readerGC(ios)()
	for _, p := range dopts.IgnorePaths {
		if p != "" && !strings.HasPrefix(p, "/") {
			return usagef("--ignore %q: want a JSON Pointer such as /content/0/text", p)
		}
	}
	reg, err := fac.Rules()
	if err != nil {
		return err
	}
	a, closeA, err := readRulesSnapshot(fac, argA, "", reg)
	if err != nil {
		return err
	}
	defer closeA()
	b, closeB, err := readRulesSnapshot(fac, argB, "", reg)
	if err != nil {
		return err
	}
	defer closeB()
	rep, err := diff.Sessions(a, b, dopts)
	if err != nil {
		return err
	}
	if err := writeDiff(ios, o.asJSON, rep); err != nil {
		return err
	}
	if rep.Differs() {
		return &exitError{int(ExitDiffers)}
	}
	return nil
}

// readSnapshot reads the session arg names (a capture file or a session
// id, as export does; session picks one of a file's sessions) into a
// snapshot whose frames can be read back: at their offsets when the
// input is a regular file, else kept in memory. It warns of the capture's
// damage, and returns the input's name and a function that closes it.
func readSnapshot(fac *Factory, arg, id string, opts session.Options) (*store.Snapshot, string, func(), error) {
	ios := fac.IOStreams
	ci, err := openExportInput(fac, arg, id)
	if err != nil {
		return nil, "", nil, err
	}
	closeIn := func() { ci.in.Close() }
	r, err := openSession(ios, ci)
	if err != nil {
		closeIn()
		return nil, "", nil, err
	}
	if src := regularFile(ci.file); src != nil {
		opts.Source = src
	} else {
		opts.KeepFrames = true
	}
	s, err := session.Load(r, &opts)
	if err != nil {
		closeIn()
		return nil, "", nil, fmt.Errorf("reading %s: %w", termtext.Escape(ci.name), err)
	}
	snap := s.Snapshot
	reportDamage(ios.ErrOut, ci.name, snap.Session.Damage)
	return snap, ci.name, closeIn, nil
}

// readRulesSnapshot is readSnapshot with the configured rules evaluated.
func readRulesSnapshot(fac *Factory, arg, id string, reg *finding.Registry) (*store.Snapshot, func(), error) {
	snap, _, closeIn, err := readSnapshot(fac, arg, id, session.Options{Rules: reg})
	return snap, closeIn, err
}

// regularFile returns f when it is a regular file (frames can be read back
// from it at their offsets); nil otherwise.
func regularFile(f *os.File) *os.File {
	if f == nil {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return f
}

// writeDiff writes the report as text, or as JSON escaped for terminals
// as every JSON mcptrail prints.
func writeDiff(ios *IOStreams, asJSON bool, rep *diff.Report) error {
	if !asJSON {
		return rep.WriteTextColor(ios.Out, ios.colorOn())
	}
	jw := termtext.NewJSONWriter(ios.Out)
	if err := rep.WriteJSON(jw); err != nil {
		return err
	}
	return jw.Flush()
}
