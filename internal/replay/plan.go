package replay

import (
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// ErrNothingToReplay is returned by NewPlan when the capture holds no
// client request to send.
var ErrNothingToReplay = errors.New("the capture holds no client request to replay")

// ErrRedacted is returned by NewPlan for a redacted capture (its values
// were replaced by a placeholder, so the server would get the placeholder).
var ErrRedacted = errors.New("the capture is redacted: the server would be sent [REDACTED] placeholders (pass --allow-redacted to replay it anyway)")

// Skip reasons.
const (
	SkipOnly       = "not selected"     // filtered out by PlanOptions.Only
	SkipUnanswered = "never answered"   // the recording holds no answer to it
	SkipCancelled  = "cancelled"        // the recorded client cancelled it
	SkipUnreadable = "frame unreadable" // the frame could not be read back from the capture
)

// PlanOptions selects what a plan sends. The zero value sends every
// recorded client call but those to tools that may be destructive.
type PlanOptions struct {
	// Only, when not empty, limits the tool calls sent to these tool
	// names; other methods (the handshake, lists) are still sent.
	Only []string
	// AllowDestructive sends every tools/call whatever the tool's
	// annotations say. False sends a tools/call only when the tool is
	// annotated readOnlyHint: true or destructiveHint: false
	// (mcp.ToolDestructiveness), by the server's own tools/list when it
	// lists the tool, else by the capture's; the driver judges each call
	// when it is due (see toolJudge).
	AllowDestructive bool
	// AllowRedacted builds a plan from a redacted capture; false refuses it
	// with ErrRedacted.
	AllowRedacted bool
}

// Plan is what a replay sends, built from the original session.
type Plan struct {
	// Steps holds one entry per recorded client call, in the order the
	// client sent them; skipped ones say why.
	Steps []Step
	// Era is the era of the capture's first client call (store.EraModern
	// or store.EraLegacy; "" when unknown).
	Era string
	// bindings are the x-mcp-header annotations of the tools the capture's
	// catalog lists (tool name → bindings): what an HTTP replay mirrors
	// into Mcp-Param-* headers until the server lists its tools.
	bindings map[string][]paramBinding
	// recorded judges each tool the capture's catalog lists (its latest
	// definition); a tool it does not list is absent.
	recorded map[string]mcp.Destructiveness
	// judge is !PlanOptions.AllowDestructive: tools/call steps are sent
	// only when toolJudge finds the tool not destructive.
	judge bool
	// pool holds the recorded answers to every server-initiated request
	// of the session, in the order asked (answerPool); lastAsk is when
	// the last of them was asked, after the session's start; firstAnswer
	// is when the server first answered a call (it was up), after the
	// session's start.
	pool        []Answer
	lastAsk     time.Duration
	firstAnswer time.Duration
}

// Step is one recorded client call and what answering the server during
// it takes.
type Step struct {
	// Call is the index of the recorded call in the original snapshot.
	Call   int
	Method string
	Target string
	// Params is the recorded request's params as sent (nil when absent).
	Params jsontext.Value
	// ParamHeaders holds the Mcp-Param-* headers the recorded tools/call
	// carried over HTTP (canonical name → value, as the capture keeps
	// them; empty when it carried none); nil when the capture kept no
	// HTTP envelope for it (a stdio capture). An HTTP replay sends them
	// until the server under test lists the tool, then derives them from
	// its x-mcp-header annotations.
	ParamHeaders map[string]string
	// Retries holds the params of the recorded MRTR retries, in round
	// order; empty when the call was not an operation.
	Retries []jsontext.Value
	// Abandoned reports whether the recorded operation ended on an
	// input_required result the client never retried.
	Abandoned bool
	// Answers holds the recorded answers to the server-initiated requests
	// the call was interrupted by (legacy era), in the order asked.
	Answers []Answer
	// Skip says why the step is not sent; "" sends it.
	Skip string
}

// Answer is a recorded client answer to a server-initiated request.
type Answer struct {
	Method string
	// Params is the recorded request's params (nil when absent), which a
	// question must match to get this answer from the session's pool.
	Params jsontext.Value
	// Response is the recorded response message (result or error), whose
	// id the replay replaces.
	Response jsontext.Value
}

// NewPlan builds the plan for replaying snap, whose frames must be
// readable (store.Options.Source). It fails with ErrNothingToReplay when
// no client request can be sent.
func NewPlan(snap *store.Snapshot, opts *PlanOptions) (*Plan, error) {
	if opts == nil {
		opts = new(PlanOptions)
	}
	if snap.Session.Redacted && !opts.AllowRedacted {
		return nil, ErrRedacted
	}
	calls := snap.Calls.Slice()
	p := &Plan{bindings: catalogBindings(snap.Catalog), recorded: recordedTools(snap.Catalog), judge: !opts.AllowDestructive}
	byCall := make(map[int]int) // recorded call index → step index
	for i := range calls {
		c := &calls[i]
		if c.Dir != capture.C2S || (c.Operation >= 0 && c.Round > 1) {
			continue
		}
		st := Step{Call: c.Index, Method: c.Method, Target: c.Target}
		st.Skip = skipReason(c, opts)
		if st.Skip == "" {
			rec, params, err := requestFrame(snap, c.RequestSeq)
			if err != nil {
				st.Skip = SkipUnreadable
			}
			st.Params = params
			if c.Method == "tools/call" {
				st.ParamHeaders = recordedParamHeaders(rec)
			}
		}
		if p.Era == "" {
			p.Era = c.Era
		}
		byCall[c.Index] = len(p.Steps)
		p.Steps = append(p.Steps, st)
	}
	if err := p.addRetries(snap); err != nil {
		return nil, err
	}
	if err := p.addAnswers(snap, calls, byCall); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(p.Steps, func(s Step) bool { return s.Skip == "" }) {
		return p, ErrNothingToReplay
	}
	return p, nil
}

// skipReason says why recorded call c is not to be sent, or "". A call
// --only leaves out is not selected, whatever else became of it. Whether
// the tool of a tools/call may be destructive is judged when the call is
// due, from the server's own listing (driver.allowed).
func skipReason(c *store.Call, opts *PlanOptions) string {
	switch {
	case c.Method == "tools/call" && len(opts.Only) > 0 && !slices.Contains(opts.Only, c.Target):
		return SkipOnly
	case c.Status == store.StatusCancelled || c.CancelSeq != 0:
		return SkipCancelled
	case c.Status == store.StatusPending:
		return SkipUnanswered
	}
	return ""
}

// addRetries fills each operation's step with the params of its recorded
// retries.
func (p *Plan) addRetries(snap *store.Snapshot) error {
	index := make(map[int]int, len(p.Steps))
	for i, st := range p.Steps {
		index[st.Call] = i
	}
	for _, op := range snap.Operations.All() {
		i, ok := index[op.Root]
		if !ok || p.Steps[i].Skip != "" {
			continue
		}
		st := &p.Steps[i]
		st.Abandoned = op.Status == store.StatusInputRequired
		for _, r := range op.Rounds[1:] {
			c := snap.Calls.At(r.Call)
			_, params, err := requestFrame(snap, c.RequestSeq)
			if err != nil {
				return fmt.Errorf("reading round %d of %s %s: %w", len(st.Retries)+2, c.Method, c.Target, err)
			}
			st.Retries = append(st.Retries, params)
		}
	}
	return nil
}

// addAnswers gives each step the recorded answers to the server-initiated
// requests that interrupted it, and the plan's pool every recorded answer
// to a server-initiated request.
func (p *Plan) addAnswers(snap *store.Snapshot, calls []store.Call, byCall map[int]int) error {
	for i := range calls {
		c := &calls[i]
		if c.Dir == capture.C2S && c.ResponseSeq != 0 {
			if at := c.End.Sub(snap.Session.Start); p.firstAnswer == 0 || at < p.firstAnswer {
				p.firstAnswer = at
			}
		}
		if c.Dir != capture.S2C || c.ResponseSeq == 0 {
			continue
		}
		rec, err := snap.Frame(c.ResponseSeq)
		if err != nil {
			return fmt.Errorf("reading the recorded answer to %s: %w", c.Method, err)
		}
		a := Answer{Method: c.Method, Response: clone(rec.Msg)}
		if _, params, err := requestFrame(snap, c.RequestSeq); err == nil {
			a.Params = params
		}
		p.pool = append(p.pool, a)
		if at := c.Start.Sub(snap.Session.Start); at > p.lastAsk {
			p.lastAsk = at
		}
		if si, ok := byCall[c.Parent]; ok && c.Parent >= 0 {
			p.Steps[si].Answers = append(p.Steps[si].Answers, a)
		}
	}
	return nil
}

// requestFrame reads back the request frame at seq and its params.
func requestFrame(snap *store.Snapshot, seq uint64) (*capture.Record, jsontext.Value, error) {
	rec, err := snap.Frame(seq)
	if err != nil {
		return nil, nil, err
	}
	if len(rec.Msg) == 0 {
		return nil, nil, fmt.Errorf("frame %d is not JSON", seq)
	}
	f := wire.Decode(rec.Msg)
	if f.Kind != wire.KindRequest {
		return nil, nil, fmt.Errorf("frame %d is not a request (%s)", seq, f.Describe())
	}
	return &rec, clone(f.Params), nil
}

// recordedParamHeaders returns the Mcp-Param-* headers of a request frame
// recorded over HTTP (empty, not nil, when it had none); nil for a frame
// without an HTTP envelope.
func recordedParamHeaders(rec *capture.Record) map[string]string {
	if rec == nil || rec.HTTP == nil {
		return nil
	}
	out := make(map[string]string)
	for k, v := range rec.HTTP.Headers {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), mcp.HeaderParamPrefix) {
			out[http.CanonicalHeaderKey(k)] = v
		}
	}
	return out
}

// recordedTools judges the tools of the capture's catalog, each by its
// latest definition.
func recordedTools(cat *store.Catalog) map[string]mcp.Destructiveness {
	out := make(map[string]mcp.Destructiveness)
	for d := range toolDefinitions(cat) {
		out[d.Key] = mcp.ToolDestructiveness(d.Annotations)
	}
	return out
}

// toolDefinitions yields the tool definitions of the capture's catalog (a
// later list's after an earlier one's); none for a nil catalog.
func toolDefinitions(cat *store.Catalog) iter.Seq[*store.Definition] {
	return func(yield func(*store.Definition) bool) {
		if cat == nil {
			return
		}
		for _, l := range cat.Lists {
			if l.Method != "tools/list" {
				continue
			}
			for i := range l.Definitions {
				if !yield(&l.Definitions[i]) {
					return
				}
			}
		}
	}
}

// Sent counts the steps the plan sends: every step not skipped, a
// tools/call among them still judged when it is due (without
// AllowDestructive).
func (p *Plan) Sent() int {
	n := 0
	for _, s := range p.Steps {
		if s.Skip == "" {
			n++
		}
	}
	return n
}

// wouldSend is Sent without the tools/call steps the capture's catalog
// judges destructive: what --dry-run expects to be sent.
func (p *Plan) wouldSend() int {
	n := 0
	for i := range p.Steps {
		if _, gated := p.recordedVerdict(&p.Steps[i]); p.Steps[i].Skip == "" && !gated {
			n++
		}
	}
	return n
}

// recordedVerdict is what the capture's catalog says of a step's tool, and
// whether that skips it unless the server's own listing says otherwise:
// false for a step that is skipped anyway or not a judged tools/call.
func (p *Plan) recordedVerdict(st *Step) (verdict, bool) {
	if !p.judge || st.Method != "tools/call" || st.Skip != "" {
		return verdict{}, false
	}
	v := recordedVerdictOf(p.recorded, st.Target)
	return v, v.hint.Destructive()
}

func clone(v jsontext.Value) jsontext.Value {
	if v == nil {
		return nil
	}
	return append(jsontext.Value(nil), v...)
}

// isInputRequired reports whether a result is an MRTR interim result.
func isInputRequired(result jsontext.Value) bool {
	r := mcp.ParseResult(result)
	return r.InputRequired()
}
