package cli

import (
	"fmt"
	"io"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// What mcptrail itself prints on a terminal (errors, warnings, file names)
// often holds text from the command line, a file name or the wire: it
// passes through termtext before it is written.

// printError writes err as mcptrail's one-line (or, when the message is
// several lines, one-block) complaint on w.
func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "mcptrail: %s\n", termtext.EscapeMultiline(err.Error()))
}

// writeJSON writes the JSON text b to w with its C1 and bidi controls
// escaped (termtext.JSONWriter).
func writeJSON(w io.Writer, b []byte) error {
	jw := termtext.NewJSONWriter(w)
	if _, err := jw.Write(b); err != nil {
		return err
	}
	return jw.Flush()
}

// reportDamage warns on w that the capture read from name had lines the
// reader skipped (a torn last line, corrupt lines). Every command that
// reads a capture calls it, whatever it writes.
func reportDamage(w io.Writer, name string, d capture.Damage) {
	if s := d.String(); s != "" {
		fmt.Fprintf(w, "mcptrail: warning: %s is damaged: %s; those lines were skipped\n", termtext.Escape(name), s)
	}
}
