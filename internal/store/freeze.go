package store

import (
	"math"
	"slices"
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
// store is dropped afterwards.
func (s *Store) freeze(copyState bool) *Snapshot {
	var calls Calls
	if copyState {
		calls = s.calls.export()
	} else {
		// What pairs later frames is dead now: let it go.
		s.byID, s.exchanges, s.mrtr = ids{}, nil, mrtrState{}
		calls = s.calls.finish()
	}
	ops := s.ops
	if copyState {
		ops = slices.Clone(s.ops)
		for i := range ops {
			ops[i].Rounds = slices.Clone(ops[i].Rounds)
		}
	}
	finishOperations(ops, &calls)
	ledger := s.ledgerRows(ops, copyState)
	return &Snapshot{
		Session:    s.session(&calls),
		Calls:      calls,
		Operations: ops,
		Findings:   s.allFindings(&calls),
		Ledger:     ledger,
		Catalog:    s.cat.published,
		Summary:    summarize(&calls),
		Counts:     s.counts,
	}
}

// finishOperations derives each operation's status and times from its
// calls: it starts with the root request and ends with the last round's
// answer, whose status it takes.
func finishOperations(ops []Operation, calls *Calls) {
	for i := range ops {
		op := &ops[i]
		last := calls.At(op.Rounds[len(op.Rounds)-1].Call)
		op.Start = calls.At(op.Root).Start
		op.Status = last.Status
		if last.ResponseSeq == 0 {
			continue
		}
		op.End = last.End
		op.DurationMS = ms(op.End.Sub(op.Start))
		op.ToolMS = op.DurationMS - op.WaitMS
	}
}

// session copies the session description and derives the eras and
// protocol versions, in order of first use.
func (s *Store) session(calls *Calls) Session {
	sess := s.sess
	sess.Command = slices.Clone(s.sess.Command)
	sess.Damage.CorruptLines = slices.Clone(s.sess.Damage.CorruptLines)
	if s.sess.Exit != nil {
		code := *s.sess.Exit
		sess.Exit = &code
	}
	if !sess.Ended {
		sess.End = s.last
	}
	for i := range calls.Len() {
		c := calls.At(i)
		if c.Era != "" && !slices.Contains(sess.Eras, c.Era) {
			sess.Eras = append(sess.Eras, c.Era)
		}
		if c.ProtocolVersion != "" && !slices.Contains(sess.ProtocolVersions, c.ProtocolVersion) {
			sess.ProtocolVersions = append(sess.ProtocolVersions, c.ProtocolVersion)
		}
	}
	return sess
}

// seqOrder sorts seq 0 after every real seq.
func seqOrder(seq uint64) uint64 {
	if seq == 0 {
		return math.MaxUint64
	}
	return seq
}
