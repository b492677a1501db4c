package store

import (
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// The change feed: as it correlates, the store reports each thing that
// happened to Options.OnChange, in the order it happened, as one typed
// Change. It says what changed (a call, an operation, a ledger row, a
// peer, a finding) by index and hands out the record being ingested and
// the message being correlated, so that a consumer builds whatever it
// needs (analytics events, a live view) from the feed and the records
// without correlating again. The store keeps nothing for any consumer.

// ChangeKind says what a Change reports.
type ChangeKind uint8

// Change kinds. A change is reported once the store has finished the step
// that made it, so the state it points to is settled for that step.
const (
	// ChangeCallOpened: a request opened call Call (Request is the parsed
	// request).
	ChangeCallOpened ChangeKind = iota + 1
	// ChangeCallAnswered: call Call got its answer (a response, an error,
	// or on HTTP an error status).
	ChangeCallAnswered
	// ChangeCallCancelled: a notifications/cancelled cancelled call Call.
	ChangeCallCancelled
	// ChangeCallLate: call Call was answered after its cancellation.
	ChangeCallLate
	// ChangeOperationRound: call Call became a round of MRTR operation
	// Operation (its root, answered input_required, or a paired retry).
	ChangeOperationRound
	// ChangeOperationCompleted: a client operation is over: client call
	// Call, alone (Operation -1) or as the last round of MRTR operation
	// Operation, was answered with something other than input_required.
	ChangeOperationCompleted
	// ChangeRowAsked: ledger row Row was opened (a question was asked).
	ChangeRowAsked
	// ChangeRowAnswered: ledger row Row got its answer (answered or
	// error).
	ChangeRowAnswered
	// ChangeCapability: a peer's capabilities or self-description changed
	// (Side c2s: the client's, s2c: the server's), read from call Call.
	ChangeCapability
	// ChangeCatalog: a tool, prompt or resource catalog of the session
	// changed.
	ChangeCatalog
	// ChangeFinding: a finding was raised while ingesting (Finding).
	// Those only the end of a capture decides (unanswered requests, a torn
	// or corrupt file) are in snapshots only.
	ChangeFinding
)

var changeNames = [...]string{
	ChangeCallOpened: "call-opened", ChangeCallAnswered: "call-answered",
	ChangeCallCancelled: "call-cancelled", ChangeCallLate: "call-late",
	ChangeOperationRound: "operation-round", ChangeOperationCompleted: "operation-completed",
	ChangeRowAsked: "row-asked", ChangeRowAnswered: "row-answered",
	ChangeCapability: "capability", ChangeCatalog: "catalog", ChangeFinding: "finding",
}

// String names the kind ("call-opened", ...).
func (k ChangeKind) String() string {
	if int(k) < len(changeNames) && changeNames[k] != "" {
		return changeNames[k]
	}
	return "unknown"
}

// Change is one entry of the change feed. It and everything it points to
// are valid only during the OnChange call: the store reuses them.
type Change struct {
	Kind ChangeKind
	// Seq is the seq of the record that caused the change (a finding's own
	// seq for ChangeFinding).
	Seq uint64
	// Call, Operation and Row are the indexes of the call, MRTR operation
	// and ledger row (in the order rows were opened) the change concerns,
	// each -1 when it concerns none.
	Call      int
	Operation int
	Row       int
	// Side is the peer of a ChangeCapability: c2s the client, s2c the
	// server.
	Side capture.Dir
	// Finding is the raised finding (ChangeFinding).
	Finding *finding.Finding
	// Record is the record being ingested; Frame the message being
	// correlated (a batch's element), nil outside frame records; Request
	// the parsed request (ChangeCallOpened only).
	Record  *capture.Record
	Frame   *wire.Frame
	Request *mcp.Request

	s *Store
}

// CallAt returns call i as it is now, or nil when there is no such call
// (or a forgetting store forgot it, Options.Forget).
func (ch *Change) CallAt(i int) *Call {
	if i < 0 || i >= ch.s.calls.len() {
		return nil
	}
	return ch.s.calls.at(i)
}

// OperationAt returns a copy of MRTR operation i as it is now, its status
// and times derived from its last round so far (as a snapshot finishes
// them); nil when there is no such operation, or a forgetting store
// forgot it (Options.Forget).
func (ch *Change) OperationAt(i int) *Operation {
	if i < 0 || i >= len(ch.s.ops) {
		return nil
	}
	op := ch.s.ops[i]
	if len(op.Rounds) == 0 {
		return nil // forgotten (Options.Forget)
	}
	root, last := ch.s.calls.at(op.Root), ch.s.calls.at(op.Rounds[len(op.Rounds)-1].Call)
	if root == nil || last == nil {
		return nil
	}
	op.finish(root.Start, last)
	return &op
}

// RowAt returns ledger row i (in the order rows were opened) as it is
// now, or nil.
func (ch *Change) RowAt(i int) *LedgerRow {
	if i < 0 || i >= len(ch.s.ledger.rows) {
		return nil
	}
	return &ch.s.ledger.rows[i]
}

// Client and Server return what each peer has said about itself so far.
func (ch *Change) Client() *Peer { return &ch.s.sess.Client }

// Server: see Client.
func (ch *Change) Server() *Peer { return &ch.s.sess.Server }

// changeFeed is the store's side of the feed: the record and message being
// correlated, and the one Change handed out.
type changeFeed struct {
	rec *capture.Record
	msg *wire.Frame
	ch  Change
	// frame and req hold copies of the message being correlated and of
	// the request a call-opened change points to, so that the ingest
	// path's own values stay on its stack.
	frame wire.Frame
	req   mcp.Request
}

// setMsg makes f the message the changes of this frame point to, when
// anyone listens.
func (s *Store) setMsg(f *wire.Frame) {
	if s.opts.OnChange == nil {
		return
	}
	s.feed.frame = *f
	s.feed.msg = &s.feed.frame
}

// emit reports a change about call, operation op and ledger row row (each
// -1 for none). It costs a nil check when nobody listens.
func (s *Store) emit(kind ChangeKind, call, op, row int) {
	if ch := s.prepare(kind, call, op, row); ch != nil {
		s.send()
	}
}

// prepare fills the Change to hand out, or returns nil when nobody
// listens; send hands it out.
func (s *Store) prepare(kind ChangeKind, call, op, row int) *Change {
	if s.opts.OnChange == nil {
		return nil
	}
	s.feed.ch = Change{Kind: kind, Call: call, Operation: op, Row: row, Record: s.feed.rec, Frame: s.feed.msg, s: s}
	if s.feed.rec != nil {
		s.feed.ch.Seq = s.feed.rec.Seq
	}
	return &s.feed.ch
}

// send hands the prepared change to OnChange and clears it.
func (s *Store) send() {
	s.opts.OnChange(&s.feed.ch)
	s.feed.ch = Change{}
}

// emitCall reports a change about call c.
func (s *Store) emitCall(kind ChangeKind, c *Call) { s.emit(kind, c.Index, c.Operation, -1) }

// emitOpened reports call c opened by request req.
func (s *Store) emitOpened(c *Call, req *mcp.Request) {
	if ch := s.prepare(ChangeCallOpened, c.Index, c.Operation, -1); ch != nil {
		s.feed.req = *req
		ch.Request = &s.feed.req
		s.send()
		s.feed.req = mcp.Request{}
	}
}

// emitCapability reports that side's self-description changed, read from
// call c.
func (s *Store) emitCapability(side capture.Dir, c *Call) {
	if ch := s.prepare(ChangeCapability, c.Index, c.Operation, -1); ch != nil {
		ch.Side = side
		s.send()
	}
}

// emitRow reports a change about ledger row i.
func (s *Store) emitRow(kind ChangeKind, i int) {
	if s.opts.OnChange == nil {
		return
	}
	row := &s.ledger.rows[i]
	s.emit(kind, row.Call, row.Operation, i)
}

// emitFinding reports the finding just appended to s.findings.
func (s *Store) emitFinding() {
	if s.opts.OnChange == nil {
		return
	}
	ch := s.prepare(ChangeFinding, -1, -1, -1)
	ch.Finding = &s.findings[len(s.findings)-1]
	ch.Seq, ch.Call = ch.Finding.Seq, ch.Finding.Call
	s.send()
}

// completed reports the operation call c ends, when its answer ends one:
// a client call outside MRTR, or the last round of its operation, answered
// with something other than input_required.
func (s *Store) completed(c *Call) {
	if s.opts.OnChange == nil || c.Dir != capture.C2S || c.Status == StatusInputRequired {
		return
	}
	if c.Operation >= 0 && c.Round != len(s.ops[c.Operation].Rounds) {
		return
	}
	if c.Operation >= 0 && s.ops[c.Operation].Task.ID != "" && s.ops[c.Operation].Task.TerminalSeq != c.ResponseSeq {
		return // a task ends with the answer that shows it terminal, once
	}
	s.emitCall(ChangeOperationCompleted, c)
}
