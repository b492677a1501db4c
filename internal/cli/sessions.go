package cli

import (
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// sessionRow is one line of `mcptrail sessions`; its JSON form is the
// --json output.
type sessionRow struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Start  time.Time `json:"start"`
	Frames int       `json:"frames"`
	Calls  int       `json:"calls"`
	// Errors counts calls answered with a JSON-RPC error or a tool error.
	Errors int `json:"errors"`
	// Ended is false when the capture has no end record (the proxy was
	// killed, or is still running).
	Ended bool   `json:"ended"`
	Path  string `json:"path"`
}

func newSessionsCmd(io *IOStreams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions [--json]",
		Short: "List the captured sessions, newest first",
		Long: `Sessions lists the captures in the state directory's sessions folder
($MCPTRAIL_HOME, else $XDG_STATE_HOME/mcptrail, else ~/.local/state/mcptrail),
newest first: id, label, start time, frames, calls, calls that failed, and the
file. A file that is not a readable capture is reported on stderr and skipped.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("sessions takes no arguments, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSessions(io, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write a JSON array instead of a table")
	return cmd
}

func runSessions(io *IOStreams, asJSON bool) error {
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
		row, err := loadSessionRow(path)
		if err != nil {
			fmt.Fprintf(io.ErrOut, "mcptrail: skipping %s: %v\n", path, err)
			continue
		}
		rows = append(rows, row)
	}
	if asJSON {
		b, err := json.Marshal(rows)
		if err != nil {
			return fmt.Errorf("encoding sessions: %w", err)
		}
		_, err = io.Out.Write(append(b, '\n'))
		return err
	}
	return writeSessionTable(io, rows)
}

// loadSessionRow reads the capture at path through the store.
func loadSessionRow(path string) (sessionRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return sessionRow{}, fmt.Errorf("opening capture: %w", err)
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		return sessionRow{}, err
	}
	snap, err := store.Load(r, nil)
	if err != nil {
		return sessionRow{}, err
	}
	row := sessionRow{
		ID: snap.Session.ID, Label: snap.Session.Label, Start: snap.Session.Start.UTC(),
		Frames: snap.Counts.Frames, Calls: len(snap.Calls), Ended: snap.Session.Ended, Path: path,
	}
	for i := range snap.Calls {
		if s := snap.Calls[i].Status; s == store.StatusError || s == store.StatusToolError {
			row.Errors++
		}
	}
	return row, nil
}

func writeSessionTable(io *IOStreams, rows []sessionRow) error {
	if len(rows) == 0 {
		fmt.Fprintln(io.ErrOut, "no sessions yet")
		return nil
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLABEL\tSTART\tFRAMES\tCALLS\tERRORS\tPATH")
	for _, r := range rows {
		label := r.Label
		if !r.Ended {
			label += " (no end)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", r.ID, label, r.Start.Format(time.RFC3339), r.Frames, r.Calls, r.Errors, r.Path)
	}
	return tw.Flush()
}
