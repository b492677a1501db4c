package textexport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// writeLedger writes the elicitations section, one line per question; a
// session that asked none gets no section at all.
func writeLedger(w *bufio.Writer, s *store.Snapshot) {
	rows := s.Ledger.Slice()
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nelicitations (%d)\n", len(rows))
	tw := newTable(w)
	fmt.Fprintln(tw, "  ASKED\tROOT\tROUND\tKEY\tMODE\tASKS\tANSWER\tELAPSED\tWAIT/TOOL\tMESSAGE\tNOTES")
	for i := range rows {
		r := &rows[i]
		round := "-"
		if r.Round > 0 {
			round = strconv.Itoa(r.Round)
		}
		fmt.Fprintf(tw, "  #%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.AskedSeq, ledgerRoot(r), round, ledgerKey(r),
			cell(r.Mode), ledgerAsks(r), ledgerAnswer(r), ledgerElapsed(r), ledgerWaitTool(r), strconv.Quote(r.Message), ledgerNotes(r))
	}
	tw.flush()
}

// LedgerLine is one row of a ledger table; Session names the session it
// came from when the table spans several.
type LedgerLine struct {
	Session string
	Row     *store.LedgerRow
}

// WriteLedger writes ledger rows as an aligned table: root call, key,
// mode, the fields asked for (form) or the host (url), the answer, the
// time the human took, and the root operation's wait and tool times. A
// SESSION column comes first when any line names a session.
func WriteLedger(w io.Writer, lines []LedgerLine) error {
	bw := bufio.NewWriter(w)
	withSession := false
	for _, l := range lines {
		withSession = withSession || l.Session != ""
	}
	tw := newTable(bw)
	head := "ROOT\tKEY\tMODE\tFIELDS/HOST\tACTION\tELAPSED\tWAIT/TOOL\tNOTES"
	if withSession {
		head = "SESSION\t" + head
	}
	fmt.Fprintln(tw, head)
	for _, l := range lines {
		r := l.Row
		if withSession {
			fmt.Fprintf(tw, "%s\t", cell(l.Session))
		}
		c := LedgerRowCells(r)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Root, c.Key, c.Mode, c.Asks,
			c.Answer, c.Elapsed, c.WaitTool, c.Notes)
	}
	tw.flush()
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing ledger: %w", err)
	}
	return nil
}

// LedgerCells is one ledger row as the ledger table (WriteLedger) shows
// it, cell by cell; every string from the capture in it is already
// escaped (termtext.Escape), so a view only cuts and pads it.
type LedgerCells struct {
	Root     string // "tools/call create_account (id 1)", "(unattributed)"
	Key      string // the inputRequests key, "-" for legacy rows
	Mode     string
	Asks     string // "username:string*, email:string*", or the url's host
	Answer   string // the action, or "(pending)", "(required)" ...
	Elapsed  string // how long the user took, "-" unless answered
	WaitTool string // the operation's wait/tool time, "-" without one
	Notes    string // observations, elicitationId, completion
}

// LedgerRowCells returns r's cells as WriteLedger prints them.
func LedgerRowCells(r *store.LedgerRow) LedgerCells {
	return LedgerCells{Root: ledgerRoot(r), Key: ledgerKey(r), Mode: cell(r.Mode), Asks: ledgerAsks(r),
		Answer: ledgerAnswer(r), Elapsed: ledgerElapsed(r), WaitTool: ledgerWaitTool(r), Notes: ledgerNotes(r)}
}

// ledgerRoot names the client call a row belongs to:
// "tools/call create_account (id 1)".
func ledgerRoot(r *store.LedgerRow) string {
	if r.Root.Call < 0 {
		return "(unattributed)"
	}
	s := cell(r.Root.Method)
	if r.Root.Target != "" {
		s += " " + cell(r.Root.Target)
	}
	return s + " (id " + idText(r.Root.ID) + ")"
}

func ledgerKey(r *store.LedgerRow) string {
	if r.Era != store.LedgerMRTR {
		return "-"
	}
	return cell(r.Key)
}

// ledgerAsks is what the question asked for: the form's fields as
// name:type, a star marking required ones, or the url's host.
func ledgerAsks(r *store.LedgerRow) string {
	switch {
	case r.Fields != nil:
		if len(r.Fields) == 0 {
			return "(no fields)"
		}
		parts := make([]string, len(r.Fields))
		for i, f := range r.Fields {
			parts[i] = cell(f.Name) + ":" + cell(f.Type)
			if f.Required {
				parts[i] += "*"
			}
		}
		return strings.Join(parts, ", ")
	case r.Host != "":
		return cell(r.Host)
	case r.URL != "":
		return "(no host)"
	}
	return "-"
}

// ledgerAnswer is the action, or the status when there is none.
func ledgerAnswer(r *store.LedgerRow) string {
	switch {
	case r.Action != "":
		return cell(r.Action)
	case r.Status == store.LedgerAnswered:
		return "(no action)"
	}
	return "(" + r.Status + ")"
}

func ledgerElapsed(r *store.LedgerRow) string {
	if r.AnsweredSeq == 0 {
		return "-"
	}
	return formatMS(r.ElapsedMS)
}

func ledgerWaitTool(r *store.LedgerRow) string {
	if r.Operation < 0 {
		return "-"
	}
	return formatMS(r.WaitMS) + "/" + formatMS(r.ToolMS)
}

func ledgerNotes(r *store.LedgerRow) string {
	notes := make([]string, 0, len(r.Observations)+2)
	for _, o := range r.Observations {
		notes = append(notes, cell(o))
	}
	if r.ElicitationID != "" {
		notes = append(notes, "elicitationId "+strconv.Quote(r.ElicitationID))
	}
	if !r.CompletedAt.IsZero() {
		notes = append(notes, "completed after "+formatMS(msBetween(r.AskedAt, r.CompletedAt)))
	}
	return strings.Join(notes, "; ")
}

// cell keeps a wire string on one table cell and off the terminal's
// controls: see termtext.Escape.
func cell(s string) string {
	return termtext.Escape(s)
}
