package mcpserve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/units"
)

// diffArgs are the diff tool's arguments: the two sessions and the diff
// command's flags.
type diffArgs struct {
	A          string   `json:"a"`
	B          string   `json:"b"`
	SlowerThan string   `json:"slower_than"`
	Ignore     []string `json:"ignore"`
	Cursor     string   `json:"cursor"`
}

// diffHead is the diff tool's answer but for its changes: the two sides,
// whether they differ (diff would exit 1) and how many changes each
// section of `mcptrail diff --json` holds.
type diffHead struct {
	A       diff.Side      `json:"a"`
	B       diff.Side      `json:"b"`
	Differs bool           `json:"differs"`
	Matched int            `json:"matched"`
	Ops     int            `json:"operations"`
	Counts  map[string]int `json:"sections"`
}

// diffChange is one element of a list of the diff report: the section it
// belongs to (the report's member, calls.changed for calls' changed) and
// the element as `mcptrail diff --json` writes it.
type diffChange struct {
	Section string `json:"section"`
	Change  any    `json:"change"`
}

// The sections of a diff report, in the order of diff --json.
var diffSections = []string{"catalog", "calls.changed", "calls.only_a", "calls.only_b", "calls.slower",
	"ledger", "findings.new", "findings.gone", "latency"}

// loadFrames reads the session arg names as load does, its frames kept
// readable for a view that reads them back (diff): at their offsets in
// the capture when nothing is redacted, else in memory, redacted.
func (s *Server) loadFrames(arg string) (*store.Snapshot, func(), error) {
	r, f, err := s.open(arg)
	if err != nil {
		return nil, nil, err
	}
	opts := &session.Options{Rules: s.rules(), Redactor: s.opts.Redactor}
	if s.opts.Redactor != nil {
		s.opts.Redactor.Reset()
		opts.KeepFrames = true
	} else {
		opts.Source = f
	}
	sess, err := session.Load(r, opts)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading session %q: %w", arg, err)
	}
	return sess.Snapshot, func() { f.Close() }, nil
}

// diffSessions answers `mcptrail diff --json A B` with the same options:
// the report's sides and counts, then its changes section by section.
func (s *Server) diffSessions(raw []byte) (*page, error) {
	var a diffArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	factor := 2.0
	if a.SlowerThan != "" {
		f, err := strconv.ParseFloat(strings.TrimSuffix(a.SlowerThan, "x"), 64)
		if err != nil || f < 0 || f > 0 && f < 1 {
			return nil, fmt.Errorf("slower_than %q: want a factor of 1 or more such as 2x, or 0", cut(a.SlowerThan, 32))
		}
		factor = f
	}
	for _, p := range a.Ignore {
		if p != "" && !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("ignore %q: want a JSON Pointer such as /content/0/text", cut(p, 64))
		}
	}
	if a.A == "" || a.B == "" {
		return nil, fmt.Errorf("diff: want two sessions, a (the older) and b, as ids or unique id prefixes (the sessions tool lists them)")
	}
	snapA, closeA, err := s.loadFrames(a.A)
	if err != nil {
		return nil, err
	}
	defer closeA()
	snapB, closeB, err := s.loadFrames(a.B)
	if err != nil {
		return nil, err
	}
	defer closeB()
	rep, err := diff.Sessions(snapA, snapB, diff.Options{SlowerThan: factor, MinSlowerMS: diff.DefaultMinSlowerMS, IgnorePaths: a.Ignore})
	if err != nil {
		return nil, err
	}
	changes := diffChanges(rep)
	head := diffHead{A: rep.A, B: rep.B, Differs: rep.Differs(), Matched: rep.Calls.Matched, Ops: rep.Calls.Operations, Counts: map[string]int{}}
	for _, sec := range diffSections {
		head.Counts[sec] = 0
	}
	for i := range changes {
		head.Counts[changes[i].Section]++
	}
	start, err := cursor(a.Cursor, len(changes))
	if err != nil {
		return nil, err
	}
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(&head, limit) },
		text: func(limit int) string { return head.text(limit) },
		list: &list{name: "changes", n: len(changes),
			item: func(i, limit int) ([]byte, error) { return marshal(&changes[i], limit) },
			line: func(i, limit int) string { return changeLine(&changes[i], limit) },
		},
		start: start,
	}, nil
}

// diffChanges flattens the report's lists, section by section.
func diffChanges(r *diff.Report) []diffChange {
	var out []diffChange
	add := func(sec string, n int, at func(int) any) {
		for i := range n {
			out = append(out, diffChange{sec, at(i)})
		}
	}
	add("catalog", len(r.Catalog), func(i int) any { return &r.Catalog[i] })
	c := &r.Calls
	add("calls.changed", len(c.Changed), func(i int) any { return &c.Changed[i] })
	add("calls.only_a", len(c.OnlyA), func(i int) any { return &c.OnlyA[i] })
	add("calls.only_b", len(c.OnlyB), func(i int) any { return &c.OnlyB[i] })
	add("calls.slower", len(c.Slower), func(i int) any { return &c.Slower[i] })
	add("ledger", len(r.Ledger), func(i int) any { return &r.Ledger[i] })
	add("findings.new", len(r.Findings.New), func(i int) any { return &r.Findings.New[i] })
	add("findings.gone", len(r.Findings.Gone), func(i int) any { return &r.Findings.Gone[i] })
	add("latency", len(r.Latency), func(i int) any { return &r.Latency[i] })
	return out
}

func (h *diffHead) text(limit int) string {
	verdict := "alike"
	if h.Differs {
		verdict = "different"
	}
	var parts []string
	for _, sec := range diffSections {
		if n := h.Counts[sec]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", sec, n))
		}
	}
	s := fmt.Sprintf("diff of session %s (A, %s) and %s (B, %s): %s; %d calls matched",
		show(h.A.Session, limit), plural(h.A.Calls, "call"), show(h.B.Session, limit), plural(h.B.Calls, "call"), verdict, h.Matched)
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	}
	return s + "\n"
}

// changeLine is one change as a line.
func changeLine(c *diffChange, limit int) string {
	ref := func(r *diff.CallRef) string {
		s := show(r.Method, limit)
		if r.Target != "" {
			s += " " + show(r.Target, limit)
		}
		return s + " " + show(r.Arguments, limit)
	}
	switch v := c.Change.(type) {
	case *diff.CatalogDelta:
		s := fmt.Sprintf("catalog: %s %s %s", v.Change, show(v.Kind, limit), show(v.Key, limit))
		for _, d := range v.Drift {
			s += " (" + show(d.Kind, limit) + ")"
		}
		return s
	case *diff.CallDelta:
		s := fmt.Sprintf("call changed: A call %d, B call %d %s: %s → %s", v.Index, v.BIndex, ref(&v.CallRef), v.OldStatus, v.NewStatus)
		if v.Error != "" {
			s += fmt.Sprintf(", error %s (%s → %s)", v.Error, show(v.OldError, limit), show(v.NewError, limit))
		}
		if len(v.Result) > 0 {
			s += fmt.Sprintf(", %s of the result", plural(len(v.Result), "member"))
		}
		return s
	case *diff.CallRef:
		side := "A"
		if c.Section == "calls.only_b" {
			side = "B"
		}
		return fmt.Sprintf("only in %s: call %d %s", side, v.Index, ref(v))
	case *diff.Slower:
		return fmt.Sprintf("slower: A call %d, B call %d %s: %s → %s", v.Index, v.BIndex, ref(&v.CallRef), units.Millis(v.OldMS), units.Millis(v.NewMS))
	case *diff.QuestionDelta:
		return fmt.Sprintf("question %s: %s %s %q", v.Change, show(v.Method, limit), show(v.Target, limit), show(v.Message, limit))
	case *diff.FindingRef:
		side := "new in B"
		if c.Section == "findings.gone" {
			side = "gone from A"
		}
		return fmt.Sprintf("finding %s: %s %s seq %d: %s", side, show(v.Rule, limit), show(v.Method+" "+v.Target, limit), v.Seq, show(v.Message, limit))
	case *diff.Latency:
		return fmt.Sprintf("p50 of %s %s: %s → %s", v.Group, show(v.Name, limit), units.Millis(v.OldMS), units.Millis(v.NewMS))
	}
	return c.Section
}
