package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	jsonexport "github.com/mcptrail/mcptrail/internal/export/json"
	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// ledgerOptions are the ledger command's flags and argument.
type ledgerOptions struct {
	asJSON  bool
	all     bool
	input   string // "" newest session, "-" stdin, a session id or a path
	session string // --session: a session id or prefix inside the input file
	redact  redactFlags
	wide    bool // --wide: every column whole (tableout.go)
}

func newLedgerCmd(fac *Factory) *cobra.Command {
	opts := ledgerOptions{}
	cmd := &cobra.Command{
		Use:   "ledger [--json] [--all | SESSION|PATH|-]",
		Short: "List every question a server put to the user, and the answer it got",
		Long: `Ledger prints a session's elicitation ledger: one row per elicitation/create,
whether it travelled inside an MRTR input_required result (2026-07-28) or as a
legacy server request, with the call it belongs to, its inputRequests key, its
mode, the question's message, the form's fields (name:type, * when required)
or the url's host (an app elicitation's ui:// resource before its fields),
the user's action, how long the user took, and the operation's wait and tool
time. The table fits the terminal (100 columns
off one): the longest cells are cut with "…" and, when that is not enough,
the least useful columns go; --wide prints every column whole.

A row never carries a value the user submitted. SESSION, PATH, - and
--session pick the capture as for export; --all lists the rows of every session in the state
directory with a session column. --json writes the rows as a JSON array, each
shaped like an element of the export's "elicitations" (docs/export-json.md).
The --redact-* flags (and the [redact] table of .mcptrail.toml) apply to the
frames before the rows are built; the capture file itself is only read.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("ledger takes at most one SESSION, PATH or -, got %d arguments", len(args))
			}
			if opts.all && len(args) > 0 {
				return usagef("ledger --all takes no SESSION, PATH or -")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.input = args[0]
			}
			red, err := fac.Redactor(&opts.redact, cmd.Flags())
			if err != nil {
				return err
			}
			return runLedger(fac, &opts, red)
		},
	}
	cmd.Flags().BoolVar(&opts.all, "all", false, "list the rows of every session in the state directory")
	cmd.Flags().StringVar(&opts.session, "session", "", "read the session `ID` (or unique id prefix) of a file that holds several")
	opts.redact.add(cmd.Flags(), "before the rows are built")
	addWideFlag(cmd.Flags(), &opts.wide)
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &opts.asJSON, JSONHelp: "write the rows as a JSON array instead of a table"})
	return cmd
}

// sessionLedger is the ledger of one session, with its operations when
// they were read (a task's status goes to its rows' notes); --all reads
// the ledgers alone.
type sessionLedger struct {
	id   string
	name string // for messages
	rows []store.LedgerRow
	ops  []store.Operation
}

func runLedger(fac *Factory, opts *ledgerOptions, red redact.Redactor) error {
	ios := fac.IOStreams
	var ledgers []sessionLedger
	if opts.all {
		var err error
		if ledgers, err = loadAllLedgers(fac, red); err != nil {
			return err
		}
	} else {
		l, err := loadLedger(fac, opts, red)
		if err != nil {
			return err
		}
		ledgers = []sessionLedger{l}
	}
	if opts.asJSON {
		return writeLedgerJSON(ios, ledgers, opts.all)
	}
	var lines []textexport.LedgerLine
	for _, l := range ledgers {
		for i := range l.rows {
			line := textexport.LedgerLine{Row: &l.rows[i]}
			if op := l.rows[i].Operation; op >= 0 && op < len(l.ops) {
				line.Op = &l.ops[op]
			}
			if opts.all {
				line.Session = l.id
			}
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		if opts.all {
			fmt.Fprintf(ios.ErrOut, "no elicitations in %d sessions\n", len(ledgers))
		} else {
			fmt.Fprintf(ios.ErrOut, "no elicitations in %s\n", termtext.Escape(ledgers[0].name))
		}
		return nil
	}
	return textexport.WriteLedger(ios.Out, lines, ios.textLayout(opts.wide))
}

// loadLedger reads the capture the argument names (as export does).
func loadLedger(fac *Factory, opts *ledgerOptions, red redact.Redactor) (sessionLedger, error) {
	ios := fac.IOStreams
	ci, err := openExportInput(fac, opts.input, opts.session)
	if err != nil {
		return sessionLedger{}, err
	}
	defer ci.in.Close()
	r, err := openSession(ios, ci)
	if err != nil {
		return sessionLedger{}, err
	}
	snap, err := loadSnapshot(r, red)
	if err != nil {
		return sessionLedger{}, fmt.Errorf("reading %s: %w", ci.name, err)
	}
	reportDamage(ios.ErrOut, ci.name, snap.Session.Damage)
	return sessionLedger{id: snap.Session.ID, name: ci.name, rows: snap.Ledger.Slice(), ops: snap.Operations.Slice()}, nil
}

// loadAllLedgers reads every session in the state directory
// (session.Ledgers); a file that is not a readable capture is reported
// and skipped.
func loadAllLedgers(fac *Factory, red redact.Redactor) ([]sessionLedger, error) {
	ios := fac.IOStreams
	state, err := fac.StateDir()
	if err != nil {
		return nil, err
	}
	damage := func(path string, d capture.Damage) { reportDamage(ios.ErrOut, path, d) }
	skip := func(path string, err error) {
		printError(ios.ErrOut, fmt.Errorf("skipping %s: %w", path, err))
	}
	stored, err := session.Ledgers(capture.SessionsDir(state), red, damage, skip)
	if err != nil {
		return nil, err
	}
	out := make([]sessionLedger, len(stored))
	for i, l := range stored {
		out[i] = sessionLedger{id: l.ID, name: l.Path, rows: l.Rows}
	}
	return out, nil
}

// writeLedgerJSON writes the rows as one JSON array, one row per line;
// with a session column, each row names its session first.
func writeLedgerJSON(ios *IOStreams, ledgers []sessionLedger, withSession bool) error {
	list := make([]jsonexport.SessionLedger, len(ledgers))
	for i, l := range ledgers {
		list[i].Rows = l.rows
		if withSession {
			list[i].Session = l.id
		}
	}
	if err := jsonexport.WriteLedgerList(ios.Out, list); err != nil {
		return fmt.Errorf("writing ledger: %w", err)
	}
	return nil
}
