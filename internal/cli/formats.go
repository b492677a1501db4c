package cli

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Every command that writes machine output takes the same output flags
// (issue 28 item 5), added by addOutputFlags and nowhere by hand:
//
//	-T, --format FORMAT  one of the command's formats (text or json for a
//	                     command that prints a table or JSON)
//	--json               the same as --format json; with another -T, a
//	                     usage error
//	-o, --output FILE    write what would go to standard output to FILE
//	                     (- is standard output); a capture is never replaced
//
// What goes to FILE is laid out as off a terminal: tables are $COLUMNS
// (else 100) columns wide and coloured only with --color always.

// exportFormats lists the formats `export -T` accepts, in the order its
// help and its errors name them.
func exportFormats() []string {
	return []string{"json", "text", formatHTML, formatHAR, formatEvents, formatOTLP}
}

// textJSON are the formats of a command that prints a table (or lines) or
// JSON.
func textJSON() []string { return []string{"text", "json"} }

// formatHTML is the self-contained HTML report (internal/export/html).
const formatHTML = "html"

// formatList is formats joined for a sentence: "a, b, c or d".
func formatList(formats []string) string {
	if len(formats) < 2 {
		return strings.Join(formats, "")
	}
	return strings.Join(formats[:len(formats)-1], ", ") + " or " + formats[len(formats)-1]
}

// outputSpec says which output flags a command takes.
type outputSpec struct {
	// Formats are -T's formats, the default first.
	Formats []string
	// Format is where the chosen format is kept; nil keeps it in the
	// outputFlags alone.
	Format *string
	// FormatHelp follows "output format: a, b or c" in -T's help; "" adds
	// nothing.
	FormatHelp string
	// JSON, when not nil, is set to whether the format is json.
	JSON *bool
	// JSONHelp is --json's help, before "(the same as --format json)";
	// "" is "write JSON".
	JSONHelp string
	// OwnOutput means the command defines -o itself (export, which
	// spools HTML beside its FILE); "" adds -o here.
	OwnOutput bool
}

// outputFlags are the values of a command's output flags.
type outputFlags struct {
	spec   outputSpec
	format string
	asJSON bool
	output string
}

// addOutputFlags adds cmd's output flags as spec says and wraps its RunE,
// which must be set: the flags are checked before it runs (an unknown
// format, or --json with another -T, is a usage error), and with -o FILE
// what it writes to standard output goes to FILE.
func addOutputFlags(cmd *cobra.Command, ios *IOStreams, spec outputSpec) *outputFlags {
	o := &outputFlags{spec: spec}
	if o.spec.Format == nil {
		o.spec.Format = &o.format
	}
	fs := cmd.Flags()
	help := "output `FORMAT`: " + formatList(spec.Formats)
	if spec.FormatHelp != "" {
		help += " " + spec.FormatHelp
	}
	fs.StringVarP(o.spec.Format, "format", "T", spec.Formats[0], help)
	jsonHelp := spec.JSONHelp
	if jsonHelp == "" {
		jsonHelp = "write JSON"
	}
	fs.BoolVar(&o.asJSON, "json", false, jsonHelp+" (the same as --format json)")
	if !spec.OwnOutput {
		fs.StringVarP(&o.output, "output", "o", "", "write the output to `FILE` instead of standard output (never over an mcptrail capture)")
	}
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletions(spec.Formats))
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if err := o.resolve(c); err != nil {
			return err
		}
		if o.output == "" || o.output == "-" {
			return run(c, args)
		}
		return o.redirect(ios, func() error { return run(c, args) })
	}
	return o
}

// resolve folds --json into the format and checks it.
func (o *outputFlags) resolve(cmd *cobra.Command) error {
	format := o.spec.Format
	if o.asJSON {
		if cmd.Flags().Changed("format") && *format != "json" {
			return usagef("--json and --format %s contradict each other; give one", *format)
		}
		*format = "json"
	}
	if !slices.Contains(o.spec.Formats, *format) {
		return usagef("unknown %s format %q (want %s)", cmd.Name(), *format, formatList(o.spec.Formats))
	}
	if o.spec.JSON != nil {
		*o.spec.JSON = *format == "json"
	}
	return checkOutputFile(o.output)
}

// checkOutputFile refuses an -o that names a directory or a capture.
func checkOutputFile(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() {
		return usagef("output %s is a directory; -o takes a file name", path)
	}
	if err == nil && !fi.Mode().IsRegular() {
		return nil // a device or a pipe, written through (opening a pipe to read it would wait for a writer)
	}
	if ok, err := capture.IsCapture(path); err == nil && ok {
		return usagef("output %s is an mcptrail capture; mcptrail never replaces one (remove it first, or pick another name)", path)
	}
	return nil
}

// redirect runs run with ios's standard output going to o.output, which is
// written whole or not at all (writeOutput). An exit status that is a
// verdict (check's findings, diff's differences) keeps the file.
func (o *outputFlags) redirect(ios *IOStreams, run func() error) error {
	var verdict error
	err := writeOutput(ios, o.output, func(w io.Writer, _ string) error {
		saved := *ios
		ios.Out, ios.OutIsTerminal, ios.OutWidth = w, false, 0
		defer func() { *ios = saved }()
		err := run()
		if ee := (*exitError)(nil); errors.As(err, &ee) {
			verdict = err
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return verdict
}
