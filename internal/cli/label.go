package cli

import (
	"os"
	"path"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
)

// sessionLabel returns the label of a proxy session: label when the user
// gave one, else capture.DeriveLabelFiles's, which may read the
// package.json of a node entry point (relative to the working directory,
// the server's). Under redaction (red not nil) a derived
// label comes only from the scrubbed command, and falls back to the
// program's name when it would hold the placeholder; any label is then
// scrubbed against the command (red.Label), since it names the file.
func sessionLabel(label string, args []string, red redact.Redactor) string {
	if red == nil {
		if label == "" {
			label = capture.DeriveLabelFiles(args, os.ReadFile)
		}
		return label
	}
	if label == "" {
		scrubbed, _ := red.Argv(args)
		label = capture.DeriveLabelFiles(scrubbed, os.ReadFile)
		if strings.Contains(label, redact.Placeholder) && len(scrubbed) > 0 {
			label = strings.TrimSuffix(path.Base(strings.ReplaceAll(scrubbed[0], `\`, "/")), ".exe")
		}
		if strings.Contains(label, redact.Placeholder) {
			label = "session"
		}
	}
	label, _ = red.Label(label, args)
	return label
}
