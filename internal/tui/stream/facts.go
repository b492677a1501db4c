package stream

import (
	"slices"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// facts are what the stream derives per call from a Data and keeps up to
// date as newer ones arrive: the ledger rows and the findings' rules of
// each call, and the calls still unanswered (whose status may change).
// Each update costs what changed, bar the findings (below).
type facts struct {
	// ledger maps a call to the ledger rows whose Call or Root.Call it is.
	ledger map[int32][]int32
	// ledgerN rows are indexed; ledgerOpen are those not answered then,
	// with what identified them, to notice a row answered or moved.
	ledgerN    int
	ledgerLast rowID
	ledgerOpen []openRow
	// rules maps a call to the rule ids of its findings; findN and
	// findEnded are the findings' count and the session's end when built.
	rules     map[int32][]string
	findN     int
	findEnded bool
	findLast  finding.Finding // the last finding seen
	// open lists the calls unanswered at the last update, with their
	// status then.
	open []openCall
}

// rowID identifies a ledger row across snapshots.
type rowID struct {
	seq uint64
	key string
}

// openRow is a ledger row not answered at the last update.
type openRow struct {
	i      int32
	id     rowID
	status string
}

// openCall is a call unanswered at the last update.
type openCall struct {
	i      int32
	status string
	op     int32
	cancel uint64
}

// update brings f up to date with snap and returns the calls whose
// status, ledger rows or findings changed (the new calls aside).
func (f *facts) update(snap *store.Snapshot) []int32 {
	var dirty []int32
	dirty = f.updateCalls(snap, dirty)
	dirty = f.updateLedger(snap, dirty)
	dirty = f.updateRules(snap, dirty)
	return dirty
}

// updateCalls re-reads the calls open at the last update (the new ones
// are tracked as the index reads them).
func (f *facts) updateCalls(snap *store.Snapshot, dirty []int32) []int32 {
	keep := f.open[:0]
	for _, o := range f.open {
		c := snap.Calls.At(int(o.i))
		if c.Status != o.status || int32(c.Operation) != o.op || c.CancelSeq != o.cancel || c.ResponseSeq != 0 {
			dirty = append(dirty, o.i)
		}
		if c.ResponseSeq == 0 {
			keep = append(keep, openCall{i: o.i, status: c.Status, op: int32(c.Operation), cancel: c.CancelSeq})
		}
	}
	f.open = keep
	return dirty
}

// track notes a new call (the index reads each once): an unanswered one
// is re-read at each update until answered.
func (f *facts) track(c *store.Call) {
	if c.ResponseSeq == 0 {
		f.open = append(f.open, openCall{i: int32(c.Index), status: c.Status, op: int32(c.Operation), cancel: c.CancelSeq})
	}
}

// updateLedger indexes the new ledger rows and re-reads the open ones. The
// store may re-sort its rows (a question asked out of order): when a row
// it knew moved, it indexes them all afresh.
func (f *facts) updateLedger(snap *store.Snapshot, dirty []int32) []int32 {
	l := &snap.Ledger
	moved := l.Len() < f.ledgerN || (f.ledgerN > 0 && idOf(l.At(f.ledgerN-1)) != f.ledgerLast)
	for _, o := range f.ledgerOpen {
		if !moved && idOf(l.At(int(o.i))) != o.id {
			moved = true
		}
	}
	if moved || f.ledger == nil {
		for _, rows := range f.ledger {
			for _, r := range rows {
				dirty = appendRowCalls(dirty, l, int(r))
			}
		}
		f.ledger, f.ledgerN, f.ledgerOpen = map[int32][]int32{}, 0, nil
	}
	keep := f.ledgerOpen[:0]
	for _, o := range f.ledgerOpen {
		r := l.At(int(o.i))
		if r.Status != o.status {
			dirty = append(dirty, int32(r.Call), int32(r.Root.Call))
		}
		if open(r.Status) {
			keep = append(keep, openRow{i: o.i, id: o.id, status: r.Status})
		}
	}
	f.ledgerOpen = keep
	for i := f.ledgerN; i < l.Len(); i++ {
		r := l.At(i)
		f.add(int32(r.Call), int32(i))
		if r.Root.Call != r.Call {
			f.add(int32(r.Root.Call), int32(i))
		}
		dirty = append(dirty, int32(r.Call), int32(r.Root.Call))
		if open(r.Status) {
			f.ledgerOpen = append(f.ledgerOpen, openRow{i: int32(i), id: idOf(r), status: r.Status})
		}
	}
	f.ledgerN = l.Len()
	if f.ledgerN > 0 {
		f.ledgerLast = idOf(l.At(f.ledgerN - 1))
	}
	return dirty
}

// appendRowCalls appends the calls of ledger row i, if it still exists.
func appendRowCalls(dirty []int32, l *store.Ledger, i int) []int32 {
	if i < l.Len() {
		r := l.At(i)
		dirty = append(dirty, int32(r.Call), int32(r.Root.Call))
	}
	return dirty
}

// add indexes ledger row r under call c (none when c < 0).
func (f *facts) add(c, r int32) {
	if c >= 0 {
		f.ledger[c] = append(f.ledger[c], r)
	}
}

// idOf identifies a ledger row.
func idOf(r store.LedgerRow) rowID { return rowID{seq: r.AskedSeq, key: r.Key} }

// open reports whether a ledger row of status may still change.
func open(status string) bool {
	return status == store.LedgerPending || status == store.LedgerRequired
}

// updateRules brings the call → rules map up to date when the findings
// changed. Findings are not random access (the store makes some as they
// are read), so this walks them; while the session runs they are only
// appended to, and only the new ones are added, unless the last one seen
// is no longer where it was (the store sorted them), when the map is
// built afresh.
func (f *facts) updateRules(snap *store.Snapshot, dirty []int32) []int32 {
	n, ended := snap.Findings.Len(), snap.Session.Ended
	if f.rules != nil && n == f.findN && ended == f.findEnded {
		return dirty
	}
	if f.rules != nil && !ended && !f.findEnded && n > f.findN {
		if d, ok := f.appendRules(snap, dirty); ok {
			return d
		}
	}
	rules := map[int32][]string{}
	var last finding.Finding
	for fd := range snap.Findings.All() {
		if fd.Call >= 0 {
			rules[int32(fd.Call)] = append(rules[int32(fd.Call)], fd.Rule)
		}
		last = fd
	}
	for c, rs := range rules {
		if !slices.Equal(rs, f.rules[c]) {
			dirty = append(dirty, c)
		}
	}
	for c := range f.rules {
		if _, ok := rules[c]; !ok {
			dirty = append(dirty, c)
		}
	}
	f.rules, f.findN, f.findEnded, f.findLast = rules, n, ended, last
	return dirty
}

// appendRules adds the findings after the f.findN known ones, reporting
// false (and changing nothing) when the known ones moved.
func (f *facts) appendRules(snap *store.Snapshot, dirty []int32) ([]int32, bool) {
	i := 0
	var fresh []finding.Finding
	for fd := range snap.Findings.All() {
		switch {
		case i == f.findN-1 && fd != f.findLast:
			return dirty, false
		case i >= f.findN:
			fresh = append(fresh, fd)
		}
		i++
	}
	for _, fd := range fresh {
		if fd.Call >= 0 {
			f.rules[int32(fd.Call)] = append(f.rules[int32(fd.Call)], fd.Rule)
			dirty = append(dirty, int32(fd.Call))
		}
		f.findLast = fd
	}
	f.findN = snap.Findings.Len()
	return dirty, true
}

// actions returns the outcomes of the ledger rows of call c, in ledger
// order: the answer's action, or the row's status when not answered. With
// own set only the rows whose question c carried count (not those of
// which c is the root).
func (f *facts) actions(l *store.Ledger, c int32, own bool, into []string) []string {
	for _, r := range f.ledger[c] {
		if int(r) >= l.Len() {
			continue
		}
		if row := l.At(int(r)); !own || row.Call == int(c) {
			into = append(into, outcome(row))
		}
	}
	return into
}

// modes appends the modes (form, url) of the ledger rows of call c, which
// elicit: matches beside the outcomes, as the HTML report's filter does.
func (f *facts) modes(l *store.Ledger, c int32, into []string) []string {
	for _, r := range f.ledger[c] {
		if int(r) < l.Len() {
			if m := l.At(int(r)).Mode; m != "" {
				into = append(into, m)
			}
		}
	}
	return into
}

// outcome is what a ledger row shows and elicit: matches: the action of an
// answered row, else its status (pending, required, error).
func outcome(r store.LedgerRow) string {
	if r.Status == store.LedgerAnswered && r.Action != "" {
		return r.Action
	}
	return r.Status
}
