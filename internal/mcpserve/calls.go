package mcpserve

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/store"
)

// callsArgs name a session, a filter in the TUI's language (docs/filter.md)
// and where the list resumes.
type callsArgs struct {
	Session string `json:"session"`
	Filter  string `json:"filter"`
	Cursor  string `json:"cursor"`
}

// callLine is one request as the calls tool lists it: a callRow and where
// it sits (its id, seqs, MRTR operation and round, the call a server
// request interrupted) and the rules its findings raised.
type callLine struct {
	callRow
	ID          string   `json:"id"`
	Era         string   `json:"era,omitempty"`
	RequestSeq  uint64   `json:"request_seq"`
	ResponseSeq uint64   `json:"response_seq,omitempty"`
	Operation   *int     `json:"operation,omitempty"`
	Round       int      `json:"round,omitempty"`
	Parent      *int     `json:"parent,omitempty"`
	Late        bool     `json:"late,omitempty"`
	Cancelled   bool     `json:"cancelled,omitempty"`
	Rules       []string `json:"rules,omitempty"`
}

// calls answers the requests of a session that the filter matches, in
// capture order, one line each (what the TUI's stream shows for them).
func (s *Server) calls(raw []byte) (*page, error) {
	var a callsArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	f, err := filter.Parse(a.Filter)
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w (docs/filter.md has the language)", cut(a.Filter, 128), err)
	}
	snap, err := s.load(a.Session)
	if err != nil {
		return nil, err
	}
	rules := map[int][]string{}
	for fd := range snap.Findings.All() {
		if fd.Call >= 0 {
			rules[fd.Call] = append(rules[fd.Call], fd.Rule)
		}
	}
	elicit := map[int][]string{}
	for _, r := range snap.Ledger.Slice() {
		outcome := r.Action
		if outcome == "" {
			outcome = r.Status
		}
		for _, c := range []int{r.Call, r.Root.Call} {
			if c >= 0 {
				elicit[c] = append(elicit[c], outcome, r.Mode)
			}
		}
	}
	var rows []callLine
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		it := itemOf(snap, &c, rules[i], elicit[i])
		if f.Match(&it) {
			rows = append(rows, lineOf(&c, rules[i]))
		}
	}
	start, err := cursor(a.Cursor, len(rows))
	if err != nil {
		return nil, err
	}
	id, total := snap.Session.ID, snap.Calls.Len()
	return &page{
		head: func(limit int) ([]byte, error) {
			return marshal(struct {
				SessionID string `json:"session_id"`
				Filter    string `json:"filter"`
				Requests  int    `json:"requests"`
			}{id, a.Filter, total}, limit)
		},
		text: func(limit int) string {
			return fmt.Sprintf("session %s: %d of %s match %q\n", show(id, limit), len(rows), plural(total, "request"), show(a.Filter, limit))
		},
		list: &list{name: "calls", n: len(rows),
			item: func(i, limit int) ([]byte, error) { return marshal(&rows[i], limit) },
			line: func(i, limit int) string { return rows[i].line(limit) },
		},
		start: start,
	}, nil
}

// itemOf is what call c offers the filter, as the TUI's stream fills it.
func itemOf(snap *store.Snapshot, c *store.Call, rules, elicit []string) filter.Item {
	it := filter.Item{Target: c.Target, Method: c.Method, Dir: string(c.Dir), Status: c.Status, Late: c.Late, Era: c.Era,
		Rules: rules, Elicit: elicit, IDs: []string{c.ID.Raw()}}
	if c.Operation >= 0 && c.Operation < snap.Operations.Len() {
		if root := snap.Operations.At(c.Operation).RootID.Raw(); root != it.IDs[0] {
			it.IDs = append(it.IDs, root)
		}
	}
	if c.ResponseSeq != 0 {
		it.Duration, it.DurationKnown = time.Duration(c.DurationMS*float64(time.Millisecond)), true
	}
	if c.Error != nil {
		it.Message = c.Error.Message
	}
	return it
}

func lineOf(c *store.Call, rules []string) callLine {
	l := callLine{callRow: rowOf(c), ID: c.ID.Raw(), Era: c.Era, RequestSeq: c.RequestSeq, ResponseSeq: c.ResponseSeq,
		Round: c.Round, Late: c.Late, Cancelled: c.CancelSeq != 0, Rules: rules}
	if c.Operation >= 0 {
		op := c.Operation
		l.Operation = &op
	}
	if c.Parent >= 0 {
		p := c.Parent
		l.Parent = &p
	}
	return l
}

func (l *callLine) line(limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s id %s #%d", l.callRow.line(limit), show(l.Dir, limit), show(l.ID, limit), l.RequestSeq)
	if l.ResponseSeq != 0 {
		fmt.Fprintf(&b, "→#%d", l.ResponseSeq)
	}
	if l.Operation != nil {
		fmt.Fprintf(&b, " op %d round %d", *l.Operation, l.Round)
	}
	if l.Parent != nil {
		fmt.Fprintf(&b, " inside call %d", *l.Parent)
	}
	if l.Cancelled {
		b.WriteString(" cancelled")
	}
	if l.Late {
		b.WriteString(" late result")
	}
	for _, r := range l.Rules {
		fmt.Fprintf(&b, " [%s]", show(r, limit))
	}
	return b.String()
}
