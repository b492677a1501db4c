package mcpserve

import (
	"fmt"
	"strings"

	jsonexport "github.com/mcptrail/mcptrail/internal/export/json"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/units"
)

// pageArgs name one session and where its list resumes.
type pageArgs struct {
	Session string `json:"session"`
	Cursor  string `json:"cursor"`
}

// ledger answers the session's elicitation ledger: each row as `mcptrail
// ledger --json` writes it (jsonexport.AppendLedgerRow), which never holds
// a value the user submitted.
func (s *Server) ledger(raw []byte) (*page, error) {
	var a pageArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	snap, err := s.load(a.Session)
	if err != nil {
		return nil, err
	}
	rows := snap.Ledger.Slice()
	start, err := cursor(a.Cursor, len(rows))
	if err != nil {
		return nil, err
	}
	id := snap.Session.ID
	return &page{
		head: func(limit int) ([]byte, error) {
			return marshal(struct {
				SessionID string `json:"session_id"`
			}{id}, limit)
		},
		text: func(limit int) string {
			return fmt.Sprintf("ledger of session %s: %s the server put to the user\n", show(id, limit), plural(len(rows), "question"))
		},
		list: &list{name: "rows", n: len(rows),
			item: func(i, limit int) ([]byte, error) { return clip(jsonexport.AppendLedgerRow(nil, "", &rows[i]), limit) },
			line: func(i, limit int) string { return ledgerLine(&rows[i], limit) },
		},
		start: start,
	}, nil
}

// ledgerLine is one row as a line: who asked in which call, how, what,
// and what the user did, never a value.
func ledgerLine(r *store.LedgerRow, limit int) string {
	var b strings.Builder
	if r.Root.Call >= 0 {
		fmt.Fprintf(&b, "call %d %s", r.Root.Call, show(r.Root.Method, limit))
		if r.Root.Target != "" {
			fmt.Fprintf(&b, " %s", show(r.Root.Target, limit))
		}
	} else {
		b.WriteString("no call")
	}
	fmt.Fprintf(&b, ": %s %s %q", show(r.Era, limit), show(r.Mode, limit), show(r.Message, limit))
	var fields []string
	for _, f := range r.Fields {
		name := f.Name + ":" + f.Type
		if f.Required {
			name += "*"
		}
		fields = append(fields, show(name, limit))
	}
	if len(fields) > 0 {
		fmt.Fprintf(&b, " fields %s", strings.Join(fields, " "))
	}
	if r.Host != "" {
		fmt.Fprintf(&b, " url host %s", show(r.Host, limit))
	}
	action := r.Action
	if action == "" {
		action = r.Status
	}
	fmt.Fprintf(&b, " → %s", show(action, limit))
	if r.AnsweredSeq != 0 {
		fmt.Fprintf(&b, " after %s", units.Millis(r.ElapsedMS))
	}
	return b.String()
}
