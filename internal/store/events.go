package store

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// The store's side of analytics events (internal/events): as it correlates,
// it notes each moment an event is due — a client operation completed, a
// question was asked, a question was answered — in the order they happen,
// together with what an event carries beyond the snapshot's calls,
// operations and ledger rows: the shapes (or, opted in, the values) of the
// root request's params and the final result, the request's trace context,
// each form field's validation rules and the names of the answer's fields.
// The events package turns a Change into an Event the same way whether it
// arrives live (EventOptions.OnChange) or from a Snapshot (EventLog).

// EventOptions ask the store to keep what analytics events need. A nil
// *EventOptions (the default) keeps nothing and costs nothing.
type EventOptions struct {
	// Content keeps the values of params, results and elicitation answers
	// (as the records carry them, so after any redaction applied before
	// Ingest); false keeps their shapes only.
	Content bool
	// OnChange, when non-nil, is called on the ingesting goroutine as each
	// change happens; the Change and what it points to are valid only
	// during the call. The store then keeps no change log and drops each
	// payload once its change is out (Snapshot.Events is nil).
	OnChange func(*Change)
}

// ChangeKind says what a Change reports.
type ChangeKind uint8

// Change kinds.
const (
	// ChangeOperation: a client call, or the last round of an MRTR
	// operation, was answered with something other than input_required.
	ChangeOperation ChangeKind = iota + 1
	// ChangeAsked: a ledger row was opened (a question was asked).
	ChangeAsked
	// ChangeAnswered: a ledger row got its answer (answered or error).
	ChangeAnswered
)

// PeerInfo is a peer's name and version as known when a change happened.
type PeerInfo struct {
	Name    string
	Version string
}

// Change is one moment an analytics event is due.
type Change struct {
	Kind ChangeKind
	// Ordinal numbers the session's changes from 1, in the order they
	// happened; Seq is the seq of the frame that caused it.
	Ordinal int
	Seq     uint64
	Client  PeerInfo
	Server  PeerInfo

	// ChangeOperation: Call is the answered call (the last round), Root
	// the operation's first request (Call itself outside MRTR) and
	// Operation the MRTR operation, final (nil outside MRTR). Params is
	// what was kept of the root request's params and Result of the final
	// result (nil for an error answer); TraceParent and TraceState are the
	// root request's _meta trace context; HTTPSession its Mcp-Session-Id.
	Call        *Call
	Root        *Call
	Operation   *Operation
	Params      jsontext.Value
	Result      jsontext.Value
	TraceParent string
	TraceState  string
	HTTPSession string

	// ChangeAsked and ChangeAnswered: the ledger row; Call is the call that
	// carried the question and Root its root (each nil when unknown). Fields holds the
	// form's fields with their validation rules (asked, form mode);
	// AnswerFields the names of the answer's content members and Answer
	// the content itself (answered; Answer only with
	// EventOptions.Content).
	Row          *LedgerRow
	Fields       []FieldRules
	AnswerFields []string
	Answer       jsontext.Value
}

// EventLog is a snapshot's changes, in order, pointing into the snapshot.
type EventLog struct {
	Changes []Change
}

// eventState is what the store keeps for events between frames.
type eventState struct {
	opts EventOptions
	n    int
	log  []changeRec
	// roots holds, per client call that is not an MRTR retry, what an
	// event keeps of its params (root.go), and rootMeta its trace context
	// and session id when it had any; results, per answered call that
	// completed an operation, what it keeps of the result (offline only).
	roots    map[int]jsontext.Value
	rootMeta map[int]rootPayload
	results  map[int]jsontext.Value
	// shapes shares one copy of each shape kept (root.go).
	shapes map[string]jsontext.Value
	// rows holds, by ledger insertion index, the extras of each row;
	// seen is how many rows have been announced, open the asked rows
	// still waiting for an answer.
	rows []rowExtra
	seen int
	open []int
}

// changeRec is a logged change; call and row are indexes (row by
// insertion).
type changeRec struct {
	kind           ChangeKind
	seq            uint64
	client, server PeerInfo
	call, row      int
}

type rootPayload struct {
	params                  jsontext.Value
	traceParent, traceState string
	httpSession             string
}

type rowExtra struct {
	fields       []FieldRules
	answerFields []string
	answer       jsontext.Value
	// key identifies the row among the sorted snapshot ledger.
	key rowKey
}

type rowKey struct {
	seq  uint64
	call int
	key  string
}

func newEventState(o *EventOptions) *eventState {
	return &eventState{opts: *o, roots: make(map[int]jsontext.Value), rootMeta: make(map[int]rootPayload),
		results: make(map[int]jsontext.Value), shapes: make(map[string]jsontext.Value)}
}

// eventRequest runs after a request is correlated (the ledger included).
func (s *Store) eventRequest(c *Call, r *capture.Record, f *wire.Frame, req *mcp.Request) {
	ev := s.ev
	if c.Dir == capture.C2S && !req.IsRetry() {
		p := rootPayload{params: ev.keep(payloadOf(f.Params, ev.opts.Content))}
		meta := member(f.Params, "_meta")
		p.traceParent, p.traceState = stringMember(meta, "traceparent"), stringMember(meta, "tracestate")
		if r.HTTP != nil {
			p.httpSession = r.HTTP.Headers["Mcp-Session-Id"]
		}
		ev.keepRoot(c.Index, p)
	}
	s.eventRows(r, f)
}

// eventAnswer runs after a call's answer is correlated (the ledger
// included): new questions, then answers, then the completed operation.
func (s *Store) eventAnswer(c *Call, r *capture.Record, f *wire.Frame) {
	s.eventRows(r, f)
	if c.Dir != capture.C2S || c.Status == StatusInputRequired {
		return
	}
	if c.Operation >= 0 {
		if op := &s.ops[c.Operation]; c.Round != len(op.Rounds) {
			return
		}
	}
	ev := s.ev
	if ev.opts.OnChange == nil {
		if f.Kind != wire.KindError {
			ev.results[c.Index] = ev.keep(payloadOf(f.Result, ev.opts.Content))
		}
		s.logChange(ChangeOperation, r.Seq, c.Index, -1)
		return
	}
	ch := s.change(ChangeOperation, r.Seq)
	ch.Call = c
	ch.Root, ch.Operation = s.liveOperation(c)
	if f.Kind != wire.KindError {
		ch.Result = payloadOf(f.Result, ev.opts.Content)
	}
	if p, ok := ev.root(ch.Root.Index); ok {
		ch.Params, ch.TraceParent, ch.TraceState, ch.HTTPSession = p.params, p.traceParent, p.traceState, p.httpSession
		ev.dropRoot(ch.Root.Index)
	}
	ev.opts.OnChange(ch)
}

// liveOperation returns the root of c and, for an MRTR round, a finished
// copy of its operation (as finishOperations makes it).
func (s *Store) liveOperation(c *Call) (*Call, *Operation) {
	if c.Operation < 0 {
		return c, nil
	}
	op := s.ops[c.Operation]
	root := s.calls.at(op.Root)
	op.Start, op.Status, op.End = root.Start, c.Status, c.End
	op.DurationMS = ms(op.End.Sub(op.Start))
	op.ToolMS = op.DurationMS - op.WaitMS
	return root, &op
}

// eventRows announces the rows the frame opened and answered.
func (s *Store) eventRows(r *capture.Record, f *wire.Frame) {
	ev := s.ev
	rows := s.ledger.rows
	required := 0
	for i := ev.seen; i < len(rows); i++ {
		row := &rows[i]
		x := rowExtra{key: rowKey{seq: row.AskedSeq, call: row.Call, key: row.Key}}
		q := questionParams(row, f, &required)
		if row.Mode == mcp.ModeForm || row.Fields != nil {
			x.fields = fieldRules(member(q, "requestedSchema"))
		}
		ev.rows = append(ev.rows, x)
		if row.Status == LedgerPending {
			ev.open = append(ev.open, i)
		}
		s.rowChange(ChangeAsked, r.Seq, i)
	}
	ev.seen = len(rows)
	kept := ev.open[:0]
	for _, i := range ev.open {
		row := &rows[i]
		if row.Status == LedgerPending {
			kept = append(kept, i)
			continue
		}
		if row.Status == LedgerAnswered {
			content := member(answerOf(row, f), "content")
			ev.rows[i].answerFields = memberNames(content)
			if ev.opts.Content {
				ev.rows[i].answer = payloadOf(content, true)
			}
		}
		s.rowChange(ChangeAnswered, r.Seq, i)
	}
	ev.open = kept
}

// questionParams returns the elicitation/create params of a row the frame
// f just opened; required counts the -32042 rows seen so far in f.
func questionParams(row *LedgerRow, f *wire.Frame, required *int) []byte {
	switch {
	case row.Era == LedgerMRTR:
		return member(member(member(f.Result, "inputRequests"), row.Key), "params")
	case row.Status == LedgerRequired:
		var out []byte
		n := 0
		wire.EachElement(member(f.ErrorData, "elicitations"), func(v []byte) {
			if n == *required {
				out = v
			}
			n++
		})
		*required++
		return out
	}
	return f.Params
}

// answerOf returns the ElicitResult that answered row in frame f: an
// inputResponses entry of a retry, or a legacy response's result.
func answerOf(row *LedgerRow, f *wire.Frame) []byte {
	if row.Era == LedgerMRTR {
		return member(member(f.Params, "inputResponses"), row.Key)
	}
	return f.Result
}

// change starts a live Change.
func (s *Store) change(kind ChangeKind, seq uint64) *Change {
	s.ev.n++
	return &Change{
		Kind: kind, Ordinal: s.ev.n, Seq: seq,
		Client: PeerInfo{s.sess.Client.Name, s.sess.Client.Version},
		Server: PeerInfo{s.sess.Server.Name, s.sess.Server.Version},
	}
}

// logChange records a change for the snapshot's EventLog.
func (s *Store) logChange(kind ChangeKind, seq uint64, call, row int) {
	s.ev.n++
	s.ev.log = append(s.ev.log, changeRec{
		kind: kind, seq: seq, call: call, row: row,
		client: PeerInfo{s.sess.Client.Name, s.sess.Client.Version},
		server: PeerInfo{s.sess.Server.Name, s.sess.Server.Version},
	})
}

// rowChange announces a row change, live or into the log.
func (s *Store) rowChange(kind ChangeKind, seq uint64, i int) {
	ev := s.ev
	if ev.opts.OnChange == nil {
		s.logChange(kind, seq, -1, i)
		return
	}
	ch := s.change(kind, seq)
	ch.Row = &s.ledger.rows[i]
	if c := ch.Row.Call; c >= 0 && c < s.calls.len() {
		ch.Call = s.calls.at(c)
	}
	if c := ch.Row.Root.Call; c >= 0 && c < s.calls.len() {
		ch.Root = s.calls.at(c)
	}
	x := &ev.rows[i]
	ch.Fields, ch.AnswerFields, ch.Answer = x.fields, x.answerFields, x.answer
	ev.opts.OnChange(ch)
	if kind == ChangeAnswered {
		x.answer = nil
	}
}
