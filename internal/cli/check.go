package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// checkOptions are the check command's flags.
type checkOptions struct {
	format        string
	failOn        string
	only, skip    []string // --rule, --skip
	categories    []string
	baseline      string
	writeBaseline string
	toolsBaseline string // --tools-baseline: tools.go
	explain       string
	maxErrors     int
	assert        check.Assertions
}

func newCheckCmd(fac *Factory) *cobra.Command {
	opts := checkOptions{}
	cmd := &cobra.Command{
		Use:   "check [flags] [SESSION|PATH|DIR|-]...",
		Short: "Check captures against the rules and assertions; exit 1 on findings (a CI gate)",
		Long: `Check reads captures and reports the findings of the enabled rules, plus the
assertions given as flags, then exits 1 when a finding is at or above
--fail-on (default error). Every session of each capture file is checked;
DIR means every capture in that directory, SESSION a session id (or unique
prefix) in the state directory, - standard input; with no argument, the newest
session. Check never writes to the state directory.

.mcptrail.toml's [rules] table applies; --rule, --skip and --category narrow it.
--baseline FILE suppresses the findings whose fingerprint FILE holds, so only
new problems fail the run; --write-baseline FILE writes one of every finding
(when every input was read) and leaves the exit status as it would be without
it. --tools-baseline FILE compares each session's tools with the catalog
mcptrail tools --save-baseline pinned in FILE (the drift rules, docs/tools.md).
--explain ID prints a rule's help. Exit codes: 0 nothing at or above
--fail-on, 1 findings, 2 usage, 3 an input could not be read. docs/check.md
has the details.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.explain != "" {
				return explainRule(fac, opts.explain, args)
			}
			copts, err := opts.checkerOptions(cmd.Flags(), fac.Rules)
			if err != nil {
				return err
			}
			return runCheck(fac, &opts, copts, args)
		},
	}
	opts.addFlags(cmd.Flags())
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: checkFormats(), Format: &opts.format, JSONHelp: "write the report as JSON"})
	return cmd
}

func (o *checkOptions) addFlags(fl *pflag.FlagSet) {
	fl.StringVar(&o.failOn, "fail-on", "error", "least severity that fails the run: error, warning or info")
	fl.StringSliceVar(&o.only, "rule", nil, "check only the rules `ID,...`")
	fl.StringSliceVar(&o.skip, "skip", nil, "do not check the rules `ID,...`")
	fl.StringSliceVar(&o.categories, "category", nil, "check only the rules of the categories `C,...`")
	fl.StringVar(&o.baseline, "baseline", "", "suppress the findings known to the baseline `FILE`")
	fl.StringVar(&o.writeBaseline, "write-baseline", "", "write a baseline of every finding to `FILE`")
	fl.StringVar(&o.toolsBaseline, "tools-baseline", "", "compare each session's tools with the tools baseline `FILE` (mcptrail tools --save-baseline)")
	fl.StringVar(&o.explain, "explain", "", "print the help of the rule `ID` and exit")
	fl.DurationVar(&o.assert.MaxDuration, "max-duration", 0, "flag every call that took longer than `D` (a server's elicitation/create, answered by a person, is not judged; its sampling/createMessage, answered by a model, is)")
	fl.DurationVar(&o.assert.MaxElicitationWait, "max-elicitation-wait", 0, "flag every elicitation/create of the server whose answer took longer than `D` (the person's think time)")
	fl.DurationVar(&o.assert.MaxToolDuration, "max-tool-duration", 0, "flag every tool call whose tool time (human wait excluded) is over `D`")
	fl.IntVar(&o.assert.MaxRoundTrips, "max-round-trips", 0, "flag every MRTR operation of more than `N` requests")
	fl.IntVar(&o.maxErrors, "max-errors", 0, "flag a session with more than `N` failed calls")
	fl.StringArrayVar(&o.assert.ExpectTools, "expect-tool", nil, "flag a session where the tool `NAME` never succeeded (repeatable)")
	fl.StringArrayVar(&o.assert.ForbidTools, "forbid-tool", nil, "flag every call of the tool `NAME` (repeatable)")
	fl.BoolVar(&o.assert.ExpectNoPending, "expect-no-pending", false, "flag every call left without an answer")
}

// checkFormats are the report formats, in the order --help lists them.
func checkFormats() []string { return []string{"text", "json", "junit", "sarif", "github"} }

// checkWriter returns the writer of format, nil for an unknown one.
func checkWriter(format string) func(io.Writer, *check.Report) error {
	switch format {
	case "text":
		return check.WriteText
	case "json":
		return check.WriteJSON
	case "junit":
		return check.WriteJUnit
	case "sarif":
		return check.WriteSARIF
	case "github":
		return check.WriteGitHub
	}
	return nil
}

// checkerOptions validates the flags and turns them into check.Options.
func (o *checkOptions) checkerOptions(fl *pflag.FlagSet, registry func() (*finding.Registry, error)) (*check.Options, error) {
	if checkWriter(o.format) == nil {
		return nil, usagef("unknown check format %q (want %s)", o.format, formatList(checkFormats()))
	}
	failOn, err := finding.ParseSeverity(o.failOn)
	if err != nil {
		return nil, usagef("--fail-on: %v", err)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--max-duration", o.assert.MaxDuration}, {"--max-elicitation-wait", o.assert.MaxElicitationWait}, {"--max-tool-duration", o.assert.MaxToolDuration}} {
		if d.v < 0 {
			return nil, usagef("%s %s: want a positive duration", d.name, d.v)
		}
	}
	if o.assert.MaxRoundTrips < 0 || o.maxErrors < 0 {
		return nil, usagef("--max-round-trips and --max-errors take a count of 0 or more")
	}
	if fl.Changed("max-errors") {
		o.assert.MaxErrors = &o.maxErrors
	}
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	// The flags narrow a copy: the Factory's registry stays the user's
	// [rules], which the session index is graded by.
	reg = reg.Clone()
	o.assert.EnableIn(reg)
	if err := narrowRules(reg, o.only, o.skip, o.categories); err != nil {
		return nil, err
	}
	opts := &check.Options{Tool: Version, FailOn: failOn, Rules: reg, Assert: o.assert}
	if o.baseline != "" {
		if opts.Baseline, err = readBaseline(o.baseline); err != nil {
			return nil, err
		}
	}
	if o.toolsBaseline != "" {
		if opts.Tools, err = readToolsBaselineFile(o.toolsBaseline); err != nil {
			return nil, err
		}
	}
	return opts, nil
}

// runCheck checks every input, writes the report and the baseline, and
// returns what decides the exit status.
func runCheck(fac *Factory, o *checkOptions, opts *check.Options, args []string) error {
	ios := fac.IOStreams
	defer readerGC(ios)()
	if err := checkBaselinePath(fac, o.writeBaseline); err != nil {
		return err
	}
	c := check.New(opts)
	if len(args) == 0 {
		args = []string{""}
	}
	var errs []error
	for _, arg := range args {
		if err := checkInput(fac, c, arg); err != nil {
			errs = append(errs, err)
		}
	}
	rep := c.Report()
	for _, res := range rep.Results {
		reportDamage(ios.ErrOut, res.Path, res.Damage)
		reportUnlisted(ios.ErrOut, &res) // tools.go
	}
	if len(rep.Results) > 0 || len(errs) == 0 {
		if err := writeCheckReport(ios, o.format, rep); err != nil {
			return err
		}
	}
	// A baseline is written only when every input was read, and writing
	// one changes no exit status: the findings --baseline does not
	// suppress still fail the run, so a gate that also refreshes its
	// baseline still fails on new problems.
	if o.writeBaseline != "" && len(errs) == 0 {
		if err := writeOutput(ios, o.writeBaseline, func(w io.Writer, _ string) error { return c.WriteBaseline(w) }); err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		for _, err := range errs[:len(errs)-1] {
			printError(ios.ErrOut, err)
		}
		return errs[len(errs)-1]
	}
	if rep.Failed() {
		if o.format != "text" {
			fmt.Fprintf(ios.ErrOut, "mcptrail: check failed: findings at or above --fail-on %s\n", termtext.Escape(string(rep.FailOn)))
		}
		return &exitError{int(ExitFindings)}
	}
	return nil
}

// writeCheckReport writes rep to standard output as format says; JSON
// formats are escaped for terminals as every JSON mcptrail prints.
func writeCheckReport(ios *IOStreams, format string, rep *check.Report) error {
	write := checkWriter(format)
	if format == "text" {
		write = func(w io.Writer, rep *check.Report) error { return check.WriteTextColor(w, rep, ios.colorOn()) }
	}
	if format != "json" && format != "sarif" {
		if err := write(ios.Out, rep); err != nil {
			return fmt.Errorf("writing the %s report: %w", format, err)
		}
		return nil
	}
	jw := termtext.NewJSONWriter(ios.Out)
	if err := write(jw, rep); err != nil {
		return fmt.Errorf("writing the %s report: %w", format, err)
	}
	return jw.Flush()
}
