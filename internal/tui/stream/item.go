package stream

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// matchGroup reports whether the filter matches call c (or the operation
// it is the root of, as a whole), one of the operation's rounds, or one of
// the requests nested under it.
func (sc *scope) matchGroup(c *store.Call, rounds []store.Round, kids []int32) bool {
	var it filter.Item
	if len(rounds) == 0 {
		if sc.item(c, "", &it); sc.f.Match(&it) {
			return true
		}
	}
	if len(rounds) > 0 {
		op := sc.snap.Operations.At(c.Operation)
		// The operation as a whole: its status and its duration, waits
		// included (slow: finds an operation slow only in sum).
		sc.item(c, "", &it)
		it.Status, it.Late = op.Status, false
		it.Duration, it.DurationKnown = time.Duration(op.DurationMS*float64(time.Millisecond)), !op.End.IsZero()
		if sc.f.Match(&it) {
			return true
		}
		for _, r := range rounds {
			rc := sc.snap.Calls.At(r.Call)
			if sc.item(&rc, op.RootID.Raw(), &it); sc.f.Match(&it) {
				return true
			}
		}
	}
	for _, k := range kids {
		kc := sc.snap.Calls.At(int(k))
		if sc.item(&kc, "", &it); sc.f.Match(&it) {
			return true
		}
	}
	return false
}

// item fills it with what call c offers the filter; rootID is its
// operation's root id ("" for none). it is valid until the next item.
func (sc *scope) item(c *store.Call, rootID string, it *filter.Item) {
	*it = filter.Item{
		Target: c.Target, Method: c.Method, Dir: string(c.Dir), Status: c.Status, Late: c.Late, Era: c.Era,
		Rules: sc.facts.rules[int32(c.Index)],
	}
	sc.ids[0] = c.ID.Raw()
	it.IDs = sc.ids[:1]
	if rootID != "" && rootID != sc.ids[0] {
		sc.ids[1] = rootID
		it.IDs = sc.ids[:2]
	}
	if _, ok := sc.facts.ledger[int32(c.Index)]; ok {
		sc.elicit = sc.facts.actions(&sc.snap.Ledger, int32(c.Index), false, sc.elicit[:0])
		sc.elicit = sc.facts.modes(&sc.snap.Ledger, int32(c.Index), sc.elicit)
		it.Elicit = sc.elicit
	}
	if c.ResponseSeq != 0 {
		it.Duration, it.DurationKnown = time.Duration(c.DurationMS*float64(time.Millisecond)), true
	}
	if c.Error != nil {
		it.Message = c.Error.Message
	}
}

// lineItem is what line l offers the filter.
func lineItem(l *ui.Line) *filter.Item {
	it := &filter.Item{Method: l.Method, Dir: string(l.Dir), Message: l.Text}
	switch l.Kind {
	case ui.LineStderr:
		it.Method = "stderr"
	case ui.LineNote:
		it.Method = "note"
		it.Target = l.Note
	}
	return it
}
