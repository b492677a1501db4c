package textexport

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// writeLedger writes the elicitations section, one line per question; a
// session that asked none gets no section at all.
func writeLedger(w *bufio.Writer, s *store.Snapshot, l Layout) {
	rows := s.Ledger.Slice()
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\nelicitations (%d)\n", len(rows))
	ptrs := make([]*store.LedgerRow, len(rows))
	for i := range rows {
		ptrs[i] = &rows[i]
	}
	rootHeader, method := ledgerRootColumn(ptrs)
	t := &termtable.Table{Indent: "  ", Columns: []termtable.Column{
		{Header: "ASKED"},
		{Header: rootHeader, Cut: true, Min: termtable.NameMin},
		{Header: "ROUND", Drop: 4, Elide: true},
		{Header: "KEY", Cut: true, Drop: 3, Elide: true},
		{Header: "MODE", Elide: true},
		{Header: "ASKS", Cut: true, Min: 16, Drop: 6},
		{Header: "ANSWER"},
		{Header: "ELAPSED", Drop: 2, Elide: true},
		{Header: "WAIT/TOOL", Drop: 5, Elide: true, Yield: true},
		{Header: "MESSAGE", Cut: true, Min: termtable.NameMin},
		{Header: "NOTES", Cut: true, Min: 10, Drop: 7, Elide: true},
	}}
	body := make(cells, len(rows))
	for i := range rows {
		r := &rows[i]
		round := "-"
		if r.Round > 0 {
			round = strconv.Itoa(r.Round)
		}
		answer := ledgerAnswer(r)
		body[i] = []termtable.Cell{text("#" + strconv.FormatUint(r.AskedSeq, 10)), text(ledgerRootIn(r, method)), text(round), text(ledgerKey(r)),
			text(cell(r.Mode)), text(ledgerAsks(r)), styled(answer, termtable.Action(answer)), text(ledgerElapsed(r)),
			text(ledgerWaitTool(r)), text(strconv.Quote(r.Message)), text(ledgerNotes(r))}
	}
	l.render(w, t, body)
}

// LedgerLine is one row of a ledger table; Session names the session it
// came from when the table spans several.
type LedgerLine struct {
	Session string
	Row     *store.LedgerRow
	// Op is the operation of the row's root call when the caller has it;
	// when that operation is a task (ext-tasks), its status, polls and
	// duration lead the notes. Nil shows none.
	Op *store.Operation
}

// WriteLedger writes ledger rows as a table laid out by l: root call, key,
// mode, the question's message, the fields asked for (form) or the host
// (url), the answer, the time the human took, the root operation's wait
// and tool times, and notes. A SESSION column comes first when any line
// names a session. When the width is short the longest cells are cut
// first (the message, as a rule), the notes, wait/tool, elapsed, key and
// fields columns go, and the message never does.
func WriteLedger(w io.Writer, lines []LedgerLine, l Layout) error {
	bw := bufio.NewWriter(w)
	withSession := false
	for _, ln := range lines {
		withSession = withSession || ln.Session != ""
	}
	ptrs := make([]*store.LedgerRow, len(lines))
	for i, ln := range lines {
		ptrs[i] = ln.Row
	}
	rootHeader, method := ledgerRootColumn(ptrs)
	t := &termtable.Table{Columns: []termtable.Column{
		{Header: rootHeader, Cut: true, Min: termtable.NameMin},
		{Header: "KEY", Cut: true, Drop: 5, Elide: true, Yield: true},
		{Header: "MODE", Elide: true},
		{Header: "MESSAGE", Cut: true, Min: termtable.NameMin},
		{Header: "FIELDS/HOST", Cut: true, Min: 16, Drop: 4},
		{Header: "ACTION"},
		{Header: "ELAPSED", Drop: 2, Elide: true},
		{Header: "WAIT/TOOL", Drop: 6, Elide: true, Yield: true},
		{Header: "NOTES", Cut: true, Min: 10, Drop: 7, Elide: true},
	}}
	if withSession {
		t.Columns = append([]termtable.Column{{Header: "SESSION", Cut: true, Min: 16, Elide: true, Drop: 3}}, t.Columns...)
	}
	body := make(cells, len(lines))
	for i, ln := range lines {
		c := LedgerRowCells(ln.Row)
		row := make([]termtable.Cell, 0, len(t.Columns))
		if withSession {
			row = append(row, text(cell(ln.Session)))
		}
		notes := c.Notes
		if t := LedgerTaskNote(ln.Op); t != "" {
			notes = strings.TrimSuffix(t+"; "+notes, "; ")
		}
		body[i] = append(row, text(ledgerRootIn(ln.Row, method)), text(c.Key), text(c.Mode), text(dash(c.Message)), text(c.Asks),
			styled(c.Answer, termtable.Action(c.Answer)), text(c.Elapsed), text(c.WaitTool), text(notes))
	}
	l.render(bw, t, body)
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
	Message  string // the question's message, escaped, not quoted
	Asks     string // "username:string*, email:string*", the url's host; an app's resource first
	Answer   string // the action, or "(pending)", "(required)" ...
	Elapsed  string // how long the user took, "-" unless answered
	WaitTool string // the operation's wait/tool time, "-" without one
	Notes    string // observations, elicitationId, completion
}

// LedgerRowCells returns r's cells as WriteLedger prints them.
func LedgerRowCells(r *store.LedgerRow) LedgerCells {
	return LedgerCells{Root: ledgerRoot(r), Key: ledgerKey(r), Mode: cell(r.Mode), Message: cell(r.Message), Asks: ledgerAsks(r),
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

// ledgerRootColumn is the heading of a table's root column over rows, and
// the method every row's root call has, "" when they differ: a method
// repeated on every row moves to the heading, "TOOL" for tools/call, so
// the column shows what tells rows apart.
func ledgerRootColumn(rows []*store.LedgerRow) (header, method string) {
	for i, r := range rows {
		switch {
		case r.Root.Call < 0 || r.Root.Target == "" || (i > 0 && r.Root.Method != method):
			return "ROOT", ""
		case i == 0:
			method = r.Root.Method
		}
	}
	switch method {
	case "":
		return "ROOT", ""
	case "tools/call":
		return "TOOL", method
	}
	return "ROOT (" + cell(method) + ")", method
}

// ledgerRootIn is r's root cell in a table whose root calls all have
// method (ledgerRootColumn): "create_account (id 1)".
func ledgerRootIn(r *store.LedgerRow, method string) string {
	if method == "" {
		return ledgerRoot(r)
	}
	return cell(r.Root.Target) + " (id " + idText(r.Root.ID) + ")"
}

func ledgerKey(r *store.LedgerRow) string {
	if r.Era != store.LedgerMRTR {
		return "-"
	}
	return cell(r.Key)
}

// ledgerAsks is what the question asked for: the form's fields as
// name:type, a star marking required ones, or the url's host; an app
// elicitation's UI resource before its fields
// ("ui://travel/seat-map: seat:string*").
func ledgerAsks(r *store.LedgerRow) string {
	if r.Resource != "" {
		// An app elicitation: the UI resource the host renders it with
		// is what "my app doesn't render" is debugged with, so it comes
		// first, where a narrow table still shows it.
		return cell(r.Resource) + ": " + ledgerFields(r)
	}
	return ledgerFields(r)
}

// ledgerFields is the form's fields, or the url's host.
func ledgerFields(r *store.LedgerRow) string {
	switch {
	case r.Fields != nil:
		if len(r.Fields) == 0 {
			return "(no fields)"
		}
		parts := make([]string, len(r.Fields))
		for i, f := range r.Fields {
			parts[i] = cell(f.Name) + ":" + cell(fieldType(f))
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

// LedgerTaskNote says what became of the task an elicitation was asked
// by: "task completed, 4 polls, 4.05s"; "" when op is nil or no task.
func LedgerTaskNote(op *store.Operation) string {
	if op == nil || op.Task.ID == "" {
		return ""
	}
	polls := "polls"
	if op.Task.Polls == 1 {
		polls = "poll"
	}
	dur := formatMS(op.DurationMS)
	if !op.Task.Terminal() {
		dur += " so far"
	}
	return fmt.Sprintf("task %s, %d %s, %s", cell(op.Task.Status), op.Task.Polls, polls, dur)
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

// fieldType is a field's type, with a select field's options:
// "enum(now|tonight)".
func fieldType(f store.LedgerField) string {
	if f.Options == nil {
		return f.Type
	}
	return f.Type + "(" + strings.Join(f.Options, "|") + ")"
}
