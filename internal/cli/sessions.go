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
	"github.com/mcptrail/mcptrail/internal/index"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/units"
)

// sessionRow is one line of `mcptrail sessions`; its JSON form is the
// --json output.
type sessionRow struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Start  time.Time `json:"start"`
	Frames int       `json:"frames"`
	// Calls counts the calls the client made, an MRTR operation once
	// however many rounds it took.
	Calls int `json:"calls"`
	// ServerRequests counts the requests the server sent the client (a
	// 2025 server's elicitation/create, sampling, roots/list, ping),
	// apart from the calls.
	ServerRequests int `json:"server_requests"`
	// Errors counts the calls either way (an operation once) that ended
	// in a JSON-RPC error, a tool error or an HTTP error status (the
	// summary's ERRORS).
	Errors int `json:"errors"`
	// Ended is false when the capture has no end record (the proxy was
	// killed, or is still running).
	Ended bool   `json:"ended"`
	Path  string `json:"path"`
}

func newSessionsCmd(fac *Factory) *cobra.Command {
	io := fac.IOStreams
	var asJSON, wide bool
	var red redactFlags
	var q sessionQuery
	cmd := &cobra.Command{
		Use:   "sessions [--json] [--label L] [--since AGE] [--transport T] [--with-elicitations] [--limit N]",
		Short: "List the captured sessions, newest first",
		Long: `Sessions lists the captures in the state directory's sessions folder
($MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail, else ~/.local/state/mcptrail),
newest first: id, label, start time, frames, the client's calls (an MRTR
operation once, however many rounds it took), the server's own requests to
the client apart (SRV-REQS: a 2025 server's elicitation/create, sampling,
roots/list, ping), calls either way that failed, and the file. The table fits
the terminal (100 columns off one): long paths and labels are cut with "…"
and, when that is not enough, the path, SRV-REQS, frames and start columns go; --wide
prints every column whole. A file that holds several sessions (--append) has
a row for each, with the same path. A file that is not a readable capture is
reported on stderr and skipped.

It reads the session index (index.db in the state directory), which a tap
updates when its session ends and which is brought up to date here for any
capture it has not seen or that changed since; the index is a cache: delete
it and it is built again from the captures (an old or damaged one is moved
to index.db.old first). A file there that mcptrail did not make, or a link,
is left as it is and named on stderr, and an index in memory answers. --label, --since (an age such
as 7d or 12h, or a date), --transport (stdio, http), --with-elicitations
(sessions that asked the user something) and --limit N (the newest N)
select the rows.

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
			r, err := fac.Redactor(&red, cmd.Flags())
			if err != nil {
				return err
			}
			f, err := q.filter(io.Now())
			if err != nil {
				return err
			}
			return runSessions(fac, f, asJSON, wide, r)
		},
	}
	q.add(cmd.Flags())
	red.add(cmd.Flags(), "in labels and paths")
	addWideFlag(cmd.Flags(), &wide)
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &asJSON, JSONHelp: "write the sessions as a JSON array instead of a table"})
	return cmd
}

func runSessions(fac *Factory, f index.Filter, asJSON, wide bool, red redact.Redactor) error {
	io := fac.IOStreams
	rows, err := indexedSessionRows(fac, f, red) // sessions_index.go
	if err != nil {
		return err
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
	if len(rows) == 0 {
		fmt.Fprintln(io.ErrOut, noSessions(f))
		return nil
	}
	return writeSessionTable(io, rows, wide)
}

// noSessions is what sessions says when no row is left: "no sessions yet"
// only when nothing was filtered out; else which filters matched none
// ("no session labelled X").
func noSessions(f index.Filter) string {
	var parts []string
	if f.Label != "" {
		parts = append(parts, "labelled "+termtext.Escape(f.Label))
	}
	if f.Transport != "" {
		parts = append(parts, "over "+termtext.Escape(f.Transport))
	}
	if !f.Since.IsZero() {
		parts = append(parts, "started since "+units.Time(f.Since))
	}
	if f.WithElicitations {
		parts = append(parts, "that asked the user something")
	}
	if len(parts) == 0 {
		return "no sessions yet (run 'mcptrail demo' to make one)"
	}
	return "no session " + strings.Join(parts, ", ")
}

// scrubbedPath is path with the label it was named after, which redaction
// changed to scrubbed, scrubbed in it: the label part of a sessions-folder
// name (time-label-id.jsonl) is replaced by the scrubbed label made file
// safe; in any other path the label's text is replaced, and the value rules
// apply.
func scrubbedPath(path, label, scrubbed, id string, red redact.Redactor) string {
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
	num := func(h string, drop int) termtable.Column {
		return termtable.Column{Header: h, Align: termtable.Right, Drop: drop}
	}
	t := &termtable.Table{Color: io.colorOn(), Columns: []termtable.Column{
		{Header: "ID"},
		{Header: "LABEL", Cut: true, Min: termtable.NameMin, Drop: 1},
		{Header: "STARTED", Drop: 3},
		num("FRAMES", 4), num("CALLS", 2), num("SRV-REQS", 5), num("ERRORS", 0),
		{Header: "PATH", Cut: true, Min: 16, Drop: 6},
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
		t.Add(termtable.Cell{Text: r.ID}, termtable.Cell{Text: label}, termtable.Cell{Text: units.Age(r.Start, io.Now())},
			termtable.Cell{Text: strconv.Itoa(r.Frames)}, termtable.Cell{Text: strconv.Itoa(r.Calls)},
			termtable.Cell{Text: strconv.Itoa(r.ServerRequests)}, errs, termtable.Cell{Text: r.Path})
	}
	return t.Render(io.Out, io.tableWidth(wide))
}
