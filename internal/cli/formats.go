package cli

import (
	"strings"

	"github.com/spf13/pflag"
)

// exportFormats lists the formats `export -T` accepts, in the order its
// help and its errors name them.
func exportFormats() []string {
	return []string{"json", "text", formatHTML, formatHAR, formatEvents, formatOTLP}
}

// formatHTML is the self-contained HTML report (internal/export/html).
const formatHTML = "html"

// formatList is formats joined for a sentence: "a, b, c or d".
func formatList(formats []string) string {
	if len(formats) < 2 {
		return strings.Join(formats, "")
	}
	return strings.Join(formats[:len(formats)-1], ", ") + " or " + formats[len(formats)-1]
}

// addFormatFlags adds -T/--format (default def, one of formats) and
// --json, shorthand for --format json, to fs (issue 28 item 5).
func addFormatFlags(fs *pflag.FlagSet, format *string, asJSON *bool, def string, formats []string) {
	fs.StringVarP(format, "format", "T", def, "output format: "+formatList(formats))
	fs.BoolVar(asJSON, "json", false, "write JSON (the same as --format json)")
}

// resolveFormat folds --json into the format; --json with another -T is a
// usage error.
func resolveFormat(fs *pflag.FlagSet, format *string, asJSON bool) error {
	if !asJSON {
		return nil
	}
	if fs.Changed("format") && *format != "json" {
		return usagef("--json and --format %s contradict each other; give one", *format)
	}
	*format = "json"
	return nil
}
