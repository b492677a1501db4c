package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
)

// How tables reach a terminal (ledger, sessions, rules, the demo summary,
// export -T text): they are cut to fit a width, and coloured or not.
//
// The width is, first match wins: unlimited with --wide; the terminal's
// width when stdout is one (a stale exported $COLUMNS must not outlive a
// resize); $COLUMNS when it is a positive number; else defaultTableWidth. Colour follows --color: always, never, or auto (the
// default), which colours when stdout is a terminal and NO_COLOR is unset
// or empty (https://no-color.org); --color always wins over NO_COLOR.

// defaultTableWidth is the width of a table written to a file or a pipe.
const defaultTableWidth = 100

// colorMode is the value of the persistent --color flag.
type colorMode string

const (
	colorAuto   colorMode = "auto"
	colorAlways colorMode = "always"
	colorNever  colorMode = "never"
)

var colorModes = []string{string(colorAuto), string(colorAlways), string(colorNever)}

func (m *colorMode) String() string {
	if *m == "" {
		return string(colorAuto)
	}
	return string(*m)
}

// Set accepts auto, always or never; anything else is a flag error, which
// Main turns into a usage error.
func (m *colorMode) Set(s string) error {
	switch colorMode(s) {
	case colorAuto, colorAlways, colorNever:
		*m = colorMode(s)
		return nil
	}
	return fmt.Errorf("want one of %s", strings.Join(colorModes, ", "))
}

func (m *colorMode) Type() string { return "when" }

// addColorFlag adds the persistent --color flag to root, setting io's
// colour mode.
func addColorFlag(root *cobra.Command, io *IOStreams) {
	root.PersistentFlags().Var(&io.color, "color", "colour tables and reports `WHEN`: auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = root.RegisterFlagCompletionFunc("color", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return colorModes, cobra.ShellCompDirectiveNoFileComp
	})
}

// addWideFlag adds --wide to a command that writes tables.
func addWideFlag(fs *pflag.FlagSet, wide *bool) {
	fs.BoolVar(wide, "wide", false, "print every column whole, however wide the table (default: fit the terminal; off one, $COLUMNS or 100 columns)")
}

// colorOn reports whether tables are coloured.
func (io *IOStreams) colorOn() bool {
	switch io.color {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	return io.OutIsTerminal && io.Getenv("NO_COLOR") == ""
}

// tableWidth is the width tables are cut to, 0 for none (--wide).
func (io *IOStreams) tableWidth(wide bool) int {
	if wide {
		return 0
	}
	if io.OutIsTerminal && io.OutWidth > 0 {
		return io.OutWidth
	}
	if n, err := strconv.Atoi(strings.TrimSpace(io.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	return defaultTableWidth
}

// textLayout is how the text export's tables are laid out on io's stdout.
func (io *IOStreams) textLayout(wide bool) textexport.Layout {
	return textexport.Layout{Width: io.tableWidth(wide), Color: io.colorOn()}
}

// exportTextLayout is how export -T text lays out its tables: as on stdout
// when it writes there; in a file (-o FILE), as off a terminal: $COLUMNS
// or defaultTableWidth columns unless --wide, and coloured only with
// --color always (the rule of every command's -o, formats.go).
func (io *IOStreams) exportTextLayout(output string, wide bool) textexport.Layout {
	if output == "" || output == "-" {
		return io.textLayout(wide)
	}
	off := *io
	off.OutIsTerminal, off.OutWidth = false, 0
	return off.textLayout(wide)
}
