package events

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Feed correlates one session's records in a store and builds its events
// from the store's change feed and the records as they come: the one path
// behind both the live sinks (Pipeline) and `export -T events|otlp`, so
// the two hold the same events for the same records. Memory follows the
// open client calls (what an event keeps of each root request until its
// operation completes), not the session's size: the store forgets what
// is finished (store.Options.Forget).
type Feed struct {
	st *store.Store
	d  deriver
}

// NewFeed returns a Feed that hands each event to emit as it is built
// (the Event is valid only during the call). With content set, events keep
// the values of params, results and answers (as the records carry them,
// so after any redaction applied before Ingest) instead of their shapes.
func NewFeed(content bool, emit func(*Event)) *Feed {
	f := &Feed{d: deriver{
		content: content, emit: emit,
		roots: make(map[int]jsontext.Value), rootMeta: make(map[int]rootPayload),
		shapes: make(map[string]jsontext.Value), fields: make(map[int][]Field),
	}}
	// The feed's findings are the store's, ungraded: the sinks grade none.
	f.st = session.NewStore(&session.Options{OnChange: f.d.onChange, Forget: true, NoChecks: true})
	return f
}

// Ingest adds one record, in file order; a session record sets the Meta
// every later event carries.
func (f *Feed) Ingest(r *capture.Record) {
	if r.Type == capture.TypeSession {
		f.d.meta = Meta{SessionID: r.SessionID, Label: r.Label, Transport: r.Transport}
	}
	f.st.Ingest(r)
}

// Meta is what every event of a session shares.
type Meta struct {
	SessionID string
	Label     string
	Transport string
}

// maxShapes bounds how many distinct shapes a deriver shares.
const maxShapes = 4096

// deriver builds events from the change feed. What it keeps per open
// client call is kept small, because a session may hold a million calls
// open: the params' shape is shared with every other request of the same
// shape, and the trace context and session id take room only when the
// request had them.
type deriver struct {
	meta    Meta
	content bool
	emit    func(*Event)
	n       int // events built so far
	// roots holds, per open client call that is not an MRTR retry, what its
	// event keeps of its params, and rootMeta its trace context and session
	// id when it had any; shapes shares one copy of each shape kept.
	roots    map[int]jsontext.Value
	rootMeta map[int]rootPayload
	shapes   map[string]jsontext.Value
	// fields holds, per ledger row still waiting for its answer, the
	// form's fields with their rules (a response event repeats them).
	fields map[int][]Field
	// sweepAt is the size of roots at which opened next drops what is kept
	// of calls the store forgot unanswered (cancelled, shadowed).
	sweepAt int
}

type rootPayload struct {
	params                  jsontext.Value
	traceParent, traceState string
	httpSession             string
}

// onChange is the store's OnChange.
func (d *deriver) onChange(ch *store.Change) {
	switch ch.Kind {
	case store.ChangeCallOpened:
		d.opened(ch)
	case store.ChangeOperationCompleted:
		d.completed(ch)
	case store.ChangeRowAsked, store.ChangeRowAnswered:
		d.row(ch)
	}
}

// opened keeps what a client operation's event needs of its request.
func (d *deriver) opened(ch *store.Change) {
	c := ch.CallAt(ch.Call)
	if c == nil || c.Dir != capture.C2S || ch.Request.IsRetry() {
		return
	}
	params := ch.Frame.Params
	p := rootPayload{params: d.keep(payloadOf(params, d.content))}
	p.traceParent, p.traceState = mcp.TraceContext(params)
	if r := ch.Record; r.HTTP != nil {
		p.httpSession = r.HTTP.Headers[mcp.HeaderSessionID]
	}
	if len(d.roots) >= d.sweepAt {
		d.sweep(ch)
	}
	d.roots[c.Index] = p.params
	if p.traceParent != "" || p.traceState != "" || p.httpSession != "" {
		p.params = nil
		d.rootMeta[c.Index] = p
	}
}

// minSweep is the fewest kept requests worth a sweep.
const minSweep = 1024

// sweep forgets what was kept of the calls the store no longer holds
// (it forgets a call cancelled or shadowed while pending, which never
// completes), then sets the next sweep at twice what is left, so that
// sweeping costs O(1) a call.
func (d *deriver) sweep(ch *store.Change) {
	for i := range d.roots {
		if ch.CallAt(i) == nil {
			delete(d.roots, i)
			delete(d.rootMeta, i)
		}
	}
	d.sweepAt = max(2*len(d.roots), minSweep)
}

// keep returns v to be kept until its event is out: the shared copy of an
// equal shape, or a copy of v no larger than it (payloadOf's buffer is
// larger). Shapes are shared up to maxShapes distinct ones; content, which
// rarely repeats, is never shared. Kept values are only read.
func (d *deriver) keep(v jsontext.Value) jsontext.Value {
	if v == nil {
		return nil
	}
	if d.content {
		return append(make(jsontext.Value, 0, len(v)), v...)
	}
	if k, ok := d.shapes[string(v)]; ok {
		return k
	}
	k := append(make(jsontext.Value, 0, len(v)), v...)
	if len(d.shapes) < maxShapes {
		d.shapes[string(k)] = k
	}
	return k
}

// takeRoot returns and forgets what was kept of call i's request.
func (d *deriver) takeRoot(i int) rootPayload {
	params, ok := d.roots[i]
	if !ok {
		return rootPayload{}
	}
	p := d.rootMeta[i]
	p.params = params
	delete(d.roots, i)
	delete(d.rootMeta, i)
	return p
}

// completed builds a completed operation's event.
func (d *deriver) completed(ch *store.Change) {
	c := ch.CallAt(ch.Call)
	root, op := c, ch.OperationAt(ch.Operation)
	if op != nil {
		root = ch.CallAt(op.Root)
	}
	e := d.event(ch)
	p := d.takeRoot(root.Index)
	e.Parameters, e.TraceParent, e.TraceState, e.HTTPSessionID = p.params, p.traceParent, p.traceState, p.httpSession
	if f := ch.Frame; f != nil && f.Kind != wire.KindError {
		e.Response = payloadOf(f.Result, d.content)
	}
	operation(&e, c, root, op)
	d.emit(&e)
}

// row builds an elicitation create or response event.
func (d *deriver) row(ch *store.Change) {
	row := ch.RowAt(ch.Row)
	e := d.event(ch)
	x := rowExtra{call: ch.CallAt(row.Call), root: ch.CallAt(row.Root.Call)}
	if ch.Kind == store.ChangeRowAsked {
		q := questionParams(row, ch.Frame)
		if row.Mode == mcp.ModeForm || row.Fields != nil {
			x.fields = fieldRules(mcp.RequestedSchema(q))
		}
		if row.Status == store.LedgerPending && x.fields != nil {
			d.fields[ch.Row] = x.fields
		}
	} else {
		x.fields = d.fields[ch.Row]
		delete(d.fields, ch.Row)
		if row.Status == store.LedgerAnswered {
			content := mcp.ElicitContent(answerOf(row, ch.Frame))
			x.answerFields = memberNames(content)
			if d.content {
				x.answer = payloadOf(content, true)
			}
		}
	}
	elicitation(&e, ch.Kind == store.ChangeRowAsked, row, &x)
	d.emit(&e)
}

// event starts an event with what every event carries.
func (d *deriver) event(ch *store.Change) Event {
	d.n++
	cl, sv := ch.Client(), ch.Server()
	return Event{
		ID:            d.meta.SessionID + "-" + strconv.Itoa(d.n),
		SessionID:     d.meta.SessionID,
		ClientName:    cl.Name,
		ClientVersion: cl.Version,
		ServerName:    sv.Name,
		ServerVersion: sv.Version,
		Seq:           ch.Seq,
		Tags:          tags(&d.meta),
	}
}
