package store

import (
	"math"
	"slices"
	"time"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// Snapshot returns an immutable copy of the session's correlated state.
// Later Ingest calls do not change it.
func (s *Store) Snapshot() *Snapshot { return s.freeze(true) }

// Final returns the snapshot of a finished session. It hands the store's
// calls and operations over instead of copying them, so that a large
// session is not held twice. The Store must not be used afterwards.
func (s *Store) Final() *Snapshot { return s.freeze(false) }

// freeze builds a Snapshot. With copyState false it hands over the
// store's calls and operations, which Load and Final may do because the
// store is dropped afterwards. A copy shares what the store will not
// change again: the call blocks (copied by the store before it changes
// them), the findings list (only appended to), the session's slices
// (replaced, never changed in place); operations and ledger rows are
// copied shallowly, their inner slices being replaced when they change.
func (s *Store) freeze(copyState bool) *Snapshot {
	if s.opts.Forget {
		return &Snapshot{Session: s.sess, Counts: s.counts}
	}
	var calls Calls
	if copyState {
		calls = s.calls.export()
	} else {
		// What pairs later frames is dead now: let it go.
		s.byID, s.exchanges, s.mrtr = ids{}, nil, mrtrState{}
		calls = s.calls.finish()
	}
	dirty := s.finishOperations(&calls)
	var ops Operations
	var ledger Ledger
	if copyState {
		ops = s.shareOperations(dirty)
		ledger = s.shareLedger(dirty)
	} else {
		ops = ListOf(s.ops)
		ledger = ListOf(s.ledgerRows(s.ops, false))
	}
	snap := &Snapshot{
		Session:    s.session(&calls),
		Calls:      calls,
		Operations: ops,
		Ledger:     ledger,
		Catalog:    s.cat.published,
		Exchanges:  s.xchg[:len(s.xchg):len(s.xchg)],
		Summary:    s.calls.roll.summary(),
		Counts:     s.counts,
		frames:     s.frames.share(&s.opts),
		lines:      s.lines.share(),
	}
	snap.Findings = s.allFindings(&snap.Calls, append(append(s.heldNoBody(&snap.Calls), s.tasksUnfinished()...), s.finishChecks(snap)...))
	return snap
}

// finishChecks runs the Finishers among the checks on snap and returns
// the findings they raised, graded (those of disabled rules dropped).
func (s *Store) finishChecks(snap *Snapshot) []finding.Finding {
	var out []finding.Finding
	for _, c := range s.opts.Checks {
		if f, ok := c.(Finisher); ok {
			f.Finish(snap, func(fd finding.Finding) { out = s.appendGraded(out, fd) })
		}
	}
	return out
}

// finishOperations derives the status and times of each operation one of
// whose calls changed since it was last finished: it starts with the root
// request and ends with the last round's answer, whose status it takes.
// It returns their indexes, in order.
func (s *Store) finishOperations(calls *Calls) []int {
	dirty := s.calls.roll.takeDirtyOps()
	slices.Sort(dirty)
	for _, i := range dirty {
		op := &s.ops[i]
		if len(op.Rounds) == 0 {
			continue // a forgetting store dropped them
		}
		last := calls.At(op.Rounds[len(op.Rounds)-1].Call)
		op.finish(calls.At(op.Root).Start, &last)
		s.calls.roll.setOp(i, op, !op.End.IsZero()) // ended: last round answered, or a task's terminal status seen
	}
	return dirty
}

// finish derives op's status and times from its root's start and its last
// round so far.
func (op *Operation) finish(start time.Time, last *Call) {
	op.Start, op.Status = start, last.Status
	op.End, op.DurationMS, op.ToolMS = time.Time{}, 0, 0
	if op.Task.ID != "" {
		// A task ends when its terminal status is seen, whatever rounds
		// (late polls, updates) follow.
		if op.Status = taskStatus(&op.Task); !op.Task.Terminal() {
			return
		}
		op.End = op.Task.TerminalAt
		op.DurationMS = ms(op.End.Sub(op.Start))
		op.ToolMS = op.DurationMS - op.WaitMS
		return
	}
	if last.ResponseSeq == 0 {
		return
	}
	op.End = last.End
	op.DurationMS = ms(op.End.Sub(op.Start))
	op.ToolMS = op.DurationMS - op.WaitMS
}

// shareOperations brings the operations' mirror up to date with the
// operations changed (dirty) or added since the last snapshot and shares it.
func (s *Store) shareOperations(dirty []int) Operations {
	m := &s.opsMirror
	for _, i := range dirty {
		if i < m.list.n {
			m.set(i, s.ops[i])
		}
	}
	for i := m.list.n; i < len(s.ops); i++ {
		m.set(i, s.ops[i])
	}
	return m.share()
}

// session returns the session description with the eras and protocol
// versions in order of first use. Its slices are shared: the store
// replaces them, never changes them in place.
func (s *Store) session(calls *Calls) Session {
	sess := s.sess
	if !sess.Ended {
		sess.End = s.last
	}
	roll := &s.calls.roll
	sess.Eras = roll.eras.list(calls, func(c *Call) string { return c.Era })
	sess.ProtocolVersions = roll.versions.list(calls, func(c *Call) string { return c.ProtocolVersion })
	return sess
}

// seqOrder sorts seq 0 after every real seq.
func seqOrder(seq uint64) uint64 {
	if seq == 0 {
		return math.MaxUint64
	}
	return seq
}
