package index

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
)

// fileEntries is what one capture file gave: an entry per session read,
// and the error that stopped the reading (nil when the file read whole).
type fileEntries struct {
	path    string
	size    int64
	mtimeNS int64
	entries []Entry
	err     error
}

// readFile loads every session of the capture at path through the
// session loader (graded by reg) and extracts its entries. A file that
// fails part way keeps the sessions read before.
func readFile(path string, fi os.FileInfo, reg *finding.Registry) fileEntries {
	out := fileEntries{path: path, size: fi.Size(), mtimeNS: fi.ModTime().UnixNano()}
	f, err := os.Open(path)
	if err != nil {
		out.err = fmt.Errorf("opening capture: %w", err)
		return out
	}
	defer f.Close()
	r, err := capture.NewReader(f)
	if err != nil {
		out.err = err
		return out
	}
	for ord := 0; ; ord++ {
		header := *r.Header()
		s, err := session.Load(r, &session.Options{Rules: reg})
		if err != nil {
			out.err = fmt.Errorf("loading capture: %w", err)
			return out
		}
		out.entries = append(out.entries, Extract(path, ord, &header, s.Snapshot))
		if err := r.NextSession(); err != nil {
			if !errors.Is(err, io.EOF) {
				out.err = err
			}
			return out
		}
	}
}

// Extract returns what the index keeps of a session: snap, read from the
// capture at path (its ord-th session, whose session record is header).
func Extract(path string, ord int, header *capture.Record, snap *store.Snapshot) Entry {
	s := &snap.Session
	e := Entry{Session: Session{
		Path: path, Ord: ord, ID: s.ID, Label: s.Label, Transport: s.Transport, Target: s.Target,
		ToolVersion: s.ToolVersion, Start: s.Start.UTC(), End: s.End.UTC(), Ended: s.Ended,
		Records: snap.Counts.Records, Frames: snap.Counts.Frames, Bytes: snap.Counts.Bytes,
		Asked:      snap.Ledger.Len(),
		ClientName: s.Client.Name, ClientVersion: s.Client.Version,
		ElicitForm: s.Client.ElicitForm, ElicitURL: s.Client.ElicitURL,
		ServerName: s.Server.Name, ServerVersion: s.Server.Version,
		Damage: s.Damage, Header: *header,
	}}
	e.Session.Errors = snap.Summary.Errors()
	e.Session.Calls, e.Session.ServerRequests = snap.CountCalls()
	e.Calls = callGroups(snap)
	e.Ledger = questions(snap)
	e.Answers = answerGroups(e.Ledger)
	e.Catalog = catalogEntries(snap.Catalog)
	e.Findings = ruleCounts(snap)
	return e
}

// callGroups groups the calls by method and target, an MRTR operation
// once with its final status and whole duration (the summary's rule).
func callGroups(snap *store.Snapshot) []CallGroup {
	type key struct {
		method, target string
		server         bool
	}
	at := map[key]int{}
	var out []CallGroup
	add := func(method, target string, server, failed, answered bool, ms float64) {
		k := key{method, target, server}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, CallGroup{Method: method, Target: target, Server: server})
		}
		g := &out[i]
		g.Calls++
		if failed {
			g.Errors++
		}
		if answered {
			g.DurationsMS = append(g.DurationsMS, ms)
		}
	}
	for _, c := range snap.Calls.Slice() {
		if c.Operation < 0 {
			add(c.Method, c.Target, c.Dir == capture.S2C, c.Failed(), c.ResponseSeq != 0, c.DurationMS)
		}
	}
	for _, op := range snap.Operations.Slice() {
		// An operation is answered once it ended: its last round answered,
		// or, for a task, its terminal status seen (not any poll's answer).
		add(op.Method, op.Target, false, store.Failed(op.Status), !op.End.IsZero(), op.DurationMS)
	}
	slices.SortFunc(out, func(a, b CallGroup) int {
		return cmp.Or(cmp.Compare(a.Method, b.Method), cmp.Compare(a.Target, b.Target), boolCompare(a.Server, b.Server))
	})
	return out
}

// questions copies the ledger rows, without their fields.
func questions(snap *store.Snapshot) []Question {
	out := make([]Question, 0, snap.Ledger.Len())
	for _, row := range snap.Ledger.All() {
		r := &row
		q := Question{
			RootMethod: r.Root.Method, Tool: r.Root.Target, Key: r.Key, Message: r.Message,
			Mode: r.Mode, Era: r.Era, Action: r.Action, Status: r.Status, AskedAt: r.AskedAt.UTC(),
			ElapsedMS: r.ElapsedMS,
		}
		switch {
		case r.Operation >= 0:
			q.WaitMS, q.OpMS = r.WaitMS, r.WaitMS+r.ToolMS
		case r.Root.Call >= 0 && r.Status == store.LedgerAnswered:
			if root := snap.Calls.At(r.Root.Call); root.ResponseSeq != 0 {
				q.WaitMS, q.OpMS = r.ElapsedMS, root.DurationMS
			}
		}
		if q.Tool == "" && q.RootMethod != mcp.MethodToolsCall {
			q.Tool = q.RootMethod
		}
		out = append(out, q)
	}
	return out
}

func catalogEntries(c *store.Catalog) []CatalogEntry {
	if c == nil {
		return nil
	}
	var out []CatalogEntry
	for _, l := range c.Lists {
		for _, d := range l.Definitions {
			out = append(out, CatalogEntry{Kind: l.Kind, Key: d.Key, Hash: d.Hash})
		}
	}
	return out
}

func ruleCounts(snap *store.Snapshot) []RuleCount {
	var out []RuleCount
	for f := range snap.Findings.All() {
		i := slices.IndexFunc(out, func(c RuleCount) bool { return c.Rule == f.Rule && c.Severity == string(f.Severity) })
		if i < 0 {
			out = append(out, RuleCount{Rule: f.Rule, Severity: string(f.Severity)})
			i = len(out) - 1
		}
		out[i].N++
	}
	slices.SortFunc(out, func(a, b RuleCount) int {
		return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Severity, b.Severity))
	})
	return out
}

// answerGroups sums qs by tool, question and mode, in order of first ask.
func answerGroups(qs []Question) []AnswerGroup {
	var out []AnswerGroup
	for i := range qs {
		q := &qs[i]
		question := cmp.Or(q.Key, q.Message)
		j := slices.IndexFunc(out, func(g AnswerGroup) bool { return g.Tool == q.Tool && g.Question == question && g.Mode == q.Mode })
		if j < 0 {
			out = append(out, AnswerGroup{Tool: q.Tool, Question: question, Mode: q.Mode})
			j = len(out) - 1
		}
		out[j].add(q)
	}
	return out
}

func (g *AnswerGroup) add(q *Question) {
	g.Asked++
	switch q.Action {
	case mcp.ActionAccept:
		g.Accept++
	case mcp.ActionDecline:
		g.Decline++
	case mcp.ActionCancel:
		g.Cancel++
	}
	switch q.Status {
	case store.LedgerPending:
		g.Pending++
	case store.LedgerAnswered:
		g.ElapsedMS = append(g.ElapsedMS, q.ElapsedMS)
	}
	if q.OpMS > 0 {
		g.WaitMS += q.WaitMS
		g.OpMS += q.OpMS
	}
}

// boolCompare orders false before true.
func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
