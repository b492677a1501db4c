package replay

import (
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/store"
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
}

// Compare compares the original session with the replay's (both with
// their frames, store.Options.Source) and leaves out of the report what p
// did not send: the calls it skipped, and the questions and findings of
// methods and targets that only skipped calls had.
func Compare(orig, got *store.Snapshot, p *Plan, opts diff.Options) (*Comparison, error) {
	rep, err := diff.Sessions(orig, got, opts)
	if err != nil {
		return nil, err
	}
	skipped := make(map[int]bool)
	sent, unsent := make(map[string]bool), make(map[string]bool)
	for _, st := range p.Steps {
		if st.Skip != "" {
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

// fromServer reports whether seq is a frame the server sent.
func fromServer(s *store.Snapshot, seq uint64) bool {
	if seq == 0 {
		return false
	}
	rec, err := s.Frame(seq)
	return err == nil && rec.Dir == capture.S2C
}
