package replay

import (
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Comparison is the original session compared with the replay's.
type Comparison struct {
	// Report is what differs (internal/diff), without what the plan did
	// not send.
	Report *diff.Report
	// ClientFindings counts the findings of the original that concern the
	// recorded client or the capture rather than the server (an invalid
	// client frame, a reused id, a torn line): the replay does not repeat
	// them, so their absence is not a difference.
	ClientFindings int
	// Noise is what Quiet left out as the server's own variation; nil
	// when nothing was learned (one run).
	Noise *Noise
}

// Compare compares the original session with the replay's (both with
// their frames, store.Options.Source) and leaves out of the report what p
// did not send (the calls it or the run res skipped, and the questions and
// findings of methods and targets that only skipped calls had) and the
// tools/list requests the replay sent of its own to judge a call (with the
// tool catalog they made, when the recording has none). A nil res is a
// run that skipped nothing while replaying.
func Compare(orig, got *store.Snapshot, p *Plan, res *Result, opts diff.Options) (*Comparison, error) {
	rep, err := diff.Sessions(orig, got, opts)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = new(Result)
	}
	skipped := make(map[int]bool)
	for _, s := range res.Skipped {
		skipped[s.Call] = true
	}
	sent, unsent := make(map[string]bool), make(map[string]bool)
	for _, st := range p.Steps {
		if st.Skip != "" || skipped[st.Call] {
			skipped[st.Call] = true
			unsent[st.Method+"\x00"+st.Target] = true
		} else {
			sent[st.Method+"\x00"+st.Target] = true
		}
	}
	onlyUnsent := func(method, target string) bool {
		k := method + "\x00" + target
		return unsent[k] && !sent[k]
	}
	rep.Calls.OnlyA = slices.DeleteFunc(rep.Calls.OnlyA, func(c diff.CallRef) bool { return skipped[c.Index] })
	rep.Calls.OnlyB = slices.DeleteFunc(rep.Calls.OnlyB, func(c diff.CallRef) bool { return ownList(got, c, res.lists) })
	if len(res.lists) > 0 && !listsTools(orig.Catalog) {
		// The replay's own tools/list made the only tool catalog: the
		// recording has none to compare it with.
		rep.Catalog = slices.DeleteFunc(rep.Catalog, func(d diff.CatalogDelta) bool { return d.Kind == store.KindTool })
	}
	rep.Ledger = slices.DeleteFunc(rep.Ledger, func(q diff.QuestionDelta) bool {
		return q.Change == diff.QuestionRemoved && onlyUnsent(q.Method, q.Target)
	})
	c := &Comparison{Report: rep}
	rep.Findings.Gone = slices.DeleteFunc(rep.Findings.Gone, func(f diff.FindingRef) bool {
		if f.Method != "" && onlyUnsent(f.Method, f.Target) {
			return true
		}
		if !fromServer(orig, f.Seq) {
			c.ClientFindings++
			return true
		}
		return false
	})
	return c, nil
}

// ownList reports whether call c of the replay's session is one of the
// tools/list requests the replay sent of its own (ids).
func ownList(got *store.Snapshot, c diff.CallRef, ids []wire.ID) bool {
	if c.Method != mcp.MethodToolsList || c.Index < 0 || c.Index >= got.Calls.Len() {
		return false
	}
	gc := got.Calls.At(c.Index)
	return gc.Dir == capture.C2S && slices.Contains(ids, gc.ID)
}

// listsTools reports whether the catalog holds a tools/list answer.
func listsTools(cat *store.Catalog) bool {
	return cat != nil && slices.ContainsFunc(cat.Lists, func(l store.CatalogList) bool { return l.Kind == store.KindTool })
}

// fromServer reports whether seq is a frame the server sent.
func fromServer(s *store.Snapshot, seq uint64) bool {
	if seq == 0 {
		return false
	}
	rec, err := s.Frame(seq)
	return err == nil && rec.Dir == capture.S2C
}
