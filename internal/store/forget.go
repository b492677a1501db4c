package store

import (
	"github.com/mcptrail/mcptrail/internal/capture"
)

// Forgetting (Options.Forget): a store that only feeds the change feed of
// a long-running session keeps what is open, never its history. At the
// end of each Ingest, once every change of the record was emitted, it
// drops the calls the record finished: a call answered outside MRTR, or
// every round of an operation its last round completed. A call that may
// never be answered but still could be (cancelled, or its id taken over
// by a newer request) waits in limbo, the newest maxLimbo of them, so a
// late answer still pairs; older ones are dropped. Findings are emitted
// and not kept, and neither are HTTP exchanges, statistics or frames.

// maxLimbo bounds the calls kept that are unlikely to be answered.
const maxLimbo = 1024

// forgetState is what a forgetting store keeps to forget.
type forgetState struct {
	// limbo lists the calls cancelled or shadowed while pending, oldest
	// first; head is where the list starts (the slots before it are
	// spent and reused once the list is half spent).
	limbo []int
	head  int
	// exchangeOf is the HTTP exchange each open client call was POSTed in.
	exchangeOf map[int]string
}

// forgetFinished drops the calls the record just ingested finished.
func (s *Store) forgetFinished() {
	for _, i := range s.calls.takeTouched() {
		c := s.calls.open[i]
		if c == nil || c.ResponseSeq == 0 || (c.Dir == capture.C2S && c.Status == StatusInputRequired && c.Operation >= 0) {
			continue
		}
		if c.Operation < 0 {
			s.drop(c)
			continue
		}
		if op := &s.ops[c.Operation]; c.Round == len(op.Rounds) && (op.Task.ID == "" || op.Task.Terminal()) {
			s.dropOperation(c.Operation) // a running task's rounds wait for its end
		}
	}
}

// dropOperation forgets every round of operation i; the operation keeps
// its index and its figures, without its rounds.
func (s *Store) dropOperation(i int) {
	op := &s.ops[i]
	for _, r := range op.Rounds {
		if rc := s.calls.open[r.Call]; rc != nil {
			s.drop(rc)
		}
	}
	op.Rounds = nil
}

// drop forgets call c: its id stops naming it, and its exchange too.
func (s *Store) drop(c *Call) {
	s.byID.forget(c.Dir, c.Conn, c.ID.Raw(), c.Index)
	if ex, ok := s.forgetting.exchangeOf[c.Index]; ok {
		if idx, ok := s.exchanges[ex]; ok && idx == c.Index {
			delete(s.exchanges, ex)
		}
		delete(s.forgetting.exchangeOf, c.Index)
	}
	delete(s.ledger.declaredOf, c.Index)
	delete(s.ledger.waiting, c.Index)
	delete(s.task.declared, c.Index)
	delete(s.cat.cursored, c.Index)
	s.calls.forget(c.Index)
}

// toLimbo keeps call i, pending but unlikely to be answered, among the
// newest maxLimbo such calls, and drops the oldest when there are more.
func (s *Store) toLimbo(i int) {
	f := &s.forgetting
	f.limbo = append(f.limbo, i)
	if len(f.limbo)-f.head <= maxLimbo {
		return
	}
	old := f.limbo[f.head]
	f.head++
	if f.head > len(f.limbo)/2 {
		f.limbo = append(f.limbo[:0], f.limbo[f.head:]...)
		f.head = 0
	}
	c := s.calls.open[old]
	if c == nil || c.ResponseSeq != 0 {
		return // answered meanwhile, and dropped then
	}
	if c.Operation < 0 {
		s.drop(c)
		return
	}
	if c.Round == len(s.ops[c.Operation].Rounds) {
		s.dropOperation(c.Operation) // its last round: it will not complete
	}
}
