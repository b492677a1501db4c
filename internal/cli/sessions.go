package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/termtable"
)

// sessionRow is one line of `mcptrail sessions`; its JSON form is the
// --json output.
type sessionRow struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Start  time.Time `json:"start"`
	Frames int       `json:"frames"`
	// Calls counts the calls both ways, an MRTR operation once however
	// many rounds it took (the summary's CALLS).
	Calls int `json:"calls"`
	// Errors counts the calls (an operation once) that ended in a
	// JSON-RPC error or a tool error.
	Errors int `json:"errors"`
	// Ended is false when the capture has no end record (the proxy was
	// killed, or is still running).
	Ended bool   `json:"ended"`
	Path  string `json:"path"`
}

func newSessionsCmd(io *IOStreams) *cobra.Command {
	var asJSON, wide bool
	var red redactFlags
	cmd := &cobra.Command{
		Use:   "sessions [--json]",
		Short: "List the captured sessions, newest first",
		Long: `Sessions lists the captures in the state directory's sessions folder
($MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail, else ~/.local/state/mcptrail),
newest first: id, label, start time, frames, calls (an MRTR operation once,
however many rounds it took), calls that failed, and the file. The table fits
the terminal (100 columns off one): long paths and labels are cut with "…"
and, when that is not enough, the path, frames and start columns go; --wide
prints every column whole. A file that holds several sessions (--append) has
a row for each, with the same path. A file that is not a readable capture is
reported on stderr and skipped.

With --redact-* flags, or a [redact] table in .mcptrail.toml, a label is
scrubbed as export scrubs it: replaced when it was taken from a command-line
value the rules hide (--token X), and by the value rules; a path that holds
a scrubbed label shows it scrubbed too (open that session by its id).`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("sessions takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := red.readRedactor(cmd.Flags())
			if err != nil {
				return err
			}
			return runSessions(io, asJSON, wide, r)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a JSON array instead of a table")
	red.add(cmd.Flags(), "in labels and paths")
	addWideFlag(cmd.Flags(), &wide)
	return cmd
}

func runSessions(io *IOStreams, asJSON, wide bool, red *redact.Redactor) error {
	state, err := capture.StateDir(io.Getenv)
	if err != nil {
		return err
	}
	files, err := capture.SessionFiles(capture.SessionsDir(state))
	if err != nil {
		return err
	}
	rows := []sessionRow{}
	for _, path := range files {
		// A file written with --append holds several sessions: a row each.
		err := eachSession(path, func(r *capture.Reader) error {
			row, dmg, err := loadSessionRow(path, r, red)
			if err == nil {
				reportDamage(io.ErrOut, path, dmg)
				rows = append(rows, row)
			}
			return err
		})
		if err != nil {
			printError(io.ErrOut, fmt.Errorf("skipping %s: %w", path, err))
		}
	}
	slices.SortStableFunc(rows, func(a, b sessionRow) int { return b.Start.Compare(a.Start) })
	if asJSON {
		// A path or label may hold bytes that are not UTF-8.
		b, err := json.Marshal(rows, jsontext.AllowInvalidUTF8(true))
		if err != nil {
			return fmt.Errorf("encoding sessions: %w", err)
		}
		return writeJSON(io.Out, append(b, '\n'))
	}
	return writeSessionTable(io, rows, wide)
}

// loadSessionRow reads the session r is at, in the capture at path,
// through the store, redacting it with red when it is not nil. It also
// returns the damage worth a warning: a torn last line of a session with
// no end record is what a session still being written looks like, so
// only its corrupt lines count.
func loadSessionRow(path string, r *capture.Reader, red *redact.Redactor) (sessionRow, capture.Damage, error) {
	label := r.Header().Label
	snap, err := loadSnapshot(r, red)
	if err != nil {
		return sessionRow{}, capture.Damage{}, err
	}
	dmg := snap.Session.Damage
	if !snap.Session.Ended {
		dmg.Torn, dmg.TornBytes = false, 0
	}
	row := sessionRow{
		ID: snap.Session.ID, Label: snap.Session.Label, Start: snap.Session.Start.UTC(),
		Frames: snap.Counts.Frames, Ended: snap.Session.Ended, Path: path,
	}
	if row.Label != label {
		row.Path = scrubbedPath(path, label, row.Label, row.ID, red)
	}
	// The per-method summary counts each operation once.
	for _, st := range snap.Summary.Methods {
		row.Calls += st.Count
		row.Errors += st.Errors
	}
	return row, dmg, nil
}

// scrubbedPath is path with the label it was named after, which redaction
// changed to scrubbed, scrubbed in it: the label part of a sessions-folder
// name (time-label-id.jsonl) is replaced by the scrubbed label made file
// safe; in any other path the label's text is replaced, and the value rules
// apply.
func scrubbedPath(path, label, scrubbed, id string, red *redact.Redactor) string {
	dir, base := filepath.Split(path)
	const stamp = len("20060102T150405.000000Z-")
	suffix := "-" + id + capture.Ext
	if len(base) > stamp+len(suffix) && strings.HasSuffix(base, suffix) {
		return dir + base[:stamp] + capture.FileSafe(scrubbed) + suffix
	}
	path = strings.ReplaceAll(path, label, scrubbed)
	path, _ = red.Label(path, nil)
	return path
}

func writeSessionTable(io *IOStreams, rows []sessionRow, wide bool) error {
	if len(rows) == 0 {
		fmt.Fprintln(io.ErrOut, "no sessions yet")
		return nil
	}
	num := func(h string, drop int) termtable.Column {
		return termtable.Column{Header: h, Align: termtable.Right, Drop: drop}
	}
	t := &termtable.Table{Color: io.colorOn(), Columns: []termtable.Column{
		{Header: "ID"},
		{Header: "LABEL", Cut: true, Min: 12, Drop: 1},
		{Header: "START", Drop: 3},
		num("FRAMES", 4), num("CALLS", 2), num("ERRORS", 0),
		{Header: "PATH", Cut: true, Min: 16, Drop: 5},
	}}
	for _, r := range rows {
		label := r.Label
		if !r.Ended {
			label += " (no end)"
		}
		errs := termtable.Cell{Text: strconv.Itoa(r.Errors)}
		if r.Errors > 0 {
			errs.Style = termtable.Bad
		}
		t.Add(termtable.Cell{Text: r.ID}, termtable.Cell{Text: label}, termtable.Cell{Text: r.Start.Format(time.RFC3339)},
			termtable.Cell{Text: strconv.Itoa(r.Frames)}, termtable.Cell{Text: strconv.Itoa(r.Calls)}, errs, termtable.Cell{Text: r.Path})
	}
	return t.Render(io.Out, io.tableWidth(wide))
}
