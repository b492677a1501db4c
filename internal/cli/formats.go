package cli

import "strings"

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
