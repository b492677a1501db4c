package store

import (
	"slices"
	"strings"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// mrtrState is what MRTR pairing (spec 2.7) keeps between frames: the
// interim results no retry has answered yet. (The arguments of pending
// retryable calls live in the call table.)
type mrtrState struct {
	live map[int]*interim // call index → its unretried interim result
	// byState and byTarget index live interims by requestState and by
	// method+target, oldest first.
	byState  map[string][]int
	byTarget map[string][]int
}

func newMRTRState() mrtrState {
	return mrtrState{
		live:     make(map[int]*interim),
		byState:  make(map[string][]int),
		byTarget: make(map[string][]int),
	}
}

// interim is an input_required answer waiting for its retry: the compact
// part of the request and result that pairing compares.
type interim struct {
	call     int
	op       int
	method   string
	target   string
	args     string // argsKey of the arguments
	state    string
	hasState bool
	// stateRedacted is set when redaction replaced (part of) the state:
	// an echo of it can no longer be checked.
	stateRedacted bool
	requests      []mcp.InputRequest
	at            time.Time // when the interim result crossed the tap
}

func targetKey(method, target string) string { return method + "\x00" + target }

// trackRetryable keeps the arguments of a pending tools/call, prompts/get
// or resources/read until it is answered.
func (s *Store) trackRetryable(e *Call, req *mcp.Request) {
	if mcp.Retryable(e.Method) {
		s.calls.track(e.Index, req.Arguments)
	}
}

// pairRetry pairs a client request carrying inputResponses or requestState
// with the interim result it retries: by identical requestState with
// exactly one live interim (strong), else by method, target, arguments and
// inputResponses keys, most recent first (heuristic). A request without
// those members is a fresh call, never a retry.
func (s *Store) pairRetry(c *Call, r *capture.Record, req *mcp.Request) {
	if !req.IsRetry() || mcp.TaskMethod(c.Method) {
		return // a tasks/update's inputResponses answer its task (task.go)
	}
	in, pairing := s.matchInterim(c, req)
	if in == nil {
		s.raise(finding.New(finding.UnpairedRetry, r.Seq,
			"%s id %s carries inputResponses or requestState but retries no interim result in the capture",
			c.Method, c.ID.Raw()))
		return
	}
	s.checkRetry(c, r, req, in, pairing)
	s.extend(in, c, r.Time, pairing)
}

// matchInterim finds the live interim result a retry answers.
func (s *Store) matchInterim(c *Call, req *mcp.Request) (*interim, string) {
	if req.HasRequestState {
		if ids := s.mrtr.byState[req.RequestState]; len(ids) == 1 {
			return s.mrtr.live[ids[0]], PairStrong
		}
	}
	ids := s.mrtr.byTarget[targetKey(c.Method, c.Target)]
	if len(ids) == 0 {
		return nil, ""
	}
	args := argsKey(req.Arguments)
	for i := len(ids) - 1; i >= 0; i-- {
		in := s.mrtr.live[ids[i]]
		if in.args == args && mcp.Covers(req.InputResponseKeys, in.requests) {
			return in, PairHeuristic
		}
	}
	return nil, ""
}

// checkRetry raises the conformance findings of a paired retry (spec 2.5,
// 2.7 step 3).
func (s *Store) checkRetry(c *Call, r *capture.Record, req *mcp.Request, in *interim, pairing string) {
	orig := s.calls.at(in.call)
	if c.ID.Raw() == orig.ID.Raw() {
		s.raise(finding.New(finding.MRTRRetrySameID, r.Seq,
			"%s retry reuses id %s of the request it retries (seq %d)", c.Method, c.ID.Raw(), orig.RequestSeq).OfCall(c.Index))
	}
	if pairing == PairStrong {
		if c.Method != in.method || c.Target != in.target || argsKey(req.Arguments) != in.args {
			s.raise(finding.New(finding.MRTRRetryMismatch, r.Seq,
				"%s %q id %s echoes the requestState of %s %q id %s but its method, target or arguments differ",
				c.Method, c.Target, c.ID.Raw(), in.method, in.target, orig.ID.Raw()).OfCall(c.Index))
		}
		return
	}
	switch {
	case in.hasState && !req.HasRequestState:
		s.raise(finding.New(finding.MRTRStateMissing, r.Seq,
			"%s id %s retries id %s without the requestState its interim result carried",
			c.Method, c.ID.Raw(), orig.ID.Raw()).OfCall(c.Index))
	case !in.hasState && req.HasRequestState:
		s.raise(finding.New(finding.MRTRStateInvented, r.Seq,
			"%s id %s retries id %s with a requestState its interim result never had",
			c.Method, c.ID.Raw(), orig.ID.Raw()).OfCall(c.Index))
	case in.hasState && req.RequestState != in.state && !in.stateRedacted && !redactedState(req.RequestState, r.Redacted):
		s.raise(finding.New(finding.MRTRStateChanged, r.Seq,
			"%s id %s retries id %s with a requestState different from the interim result's",
			c.Method, c.ID.Raw(), orig.ID.Raw()).OfCall(c.Index))
	}
}

// extend makes c the next round of the interim's operation and retires the
// interim. The gap between the interim result and this retry is wait time.
func (s *Store) extend(in *interim, c *Call, at time.Time, pairing string) {
	op := &s.ops[in.op]
	op.WaitMS += ms(at.Sub(in.at))
	c.Operation, c.Round = in.op, len(op.Rounds)+1
	// Snapshots share Rounds: a new array, never one they hold.
	op.Rounds = append(slices.Clip(op.Rounds), Round{Call: c.Index, ID: c.ID, Pairing: pairing})
	s.retire(in)
	s.emitCall(ChangeOperationRound, c)
}

// mrtrAnswered runs when a call is answered: an input_required result on a
// retryable client call starts an operation (or adds the round's details to
// the one the call belongs to) and becomes a live interim result.
func (s *Store) mrtrAnswered(c *Call, res *mcp.Result, redacted bool) {
	args, tracked := s.calls.untrack(c.Index)
	if !res.InputRequired() {
		return
	}
	if !tracked {
		s.raise(finding.New(finding.MRTRNotRetryable, c.ResponseSeq,
			"%s %s id %s is answered with input_required; only client tools/call, prompts/get and resources/read may be",
			c.Dir, c.Method, c.ID.Raw()).OfCall(c.Index))
		return
	}
	if c.Operation < 0 {
		c.Operation, c.Round = len(s.ops), 1
		s.ops = append(s.ops, Operation{
			Index: c.Operation, Method: c.Method, Target: c.Target, Root: c.Index, RootID: c.ID,
			Rounds: []Round{{Call: c.Index, ID: c.ID, Pairing: PairRoot}},
		})
		s.emitCall(ChangeOperationRound, c)
	}
	op := &s.ops[c.Operation]
	op.Rounds = slices.Clone(op.Rounds) // snapshots share the old array
	round := &op.Rounds[c.Round-1]
	round.HasState = res.HasRequestState
	round.InputRequests = make([]InputRequest, len(res.InputRequests))
	for i, ir := range res.InputRequests {
		round.InputRequests[i] = InputRequest{Key: ir.Key, Method: ir.Method}
	}
	s.register(&interim{
		call: c.Index, op: c.Operation, method: c.Method, target: c.Target,
		args: trackedKey(args), state: res.RequestState, hasState: res.HasRequestState,
		stateRedacted: redactedState(res.RequestState, redacted),
		requests:      res.InputRequests, at: c.End,
	})
}

// redactedState reports whether a requestState of a redacted record holds
// the redaction placeholder, so that comparing it proves nothing.
func redactedState(state string, redacted bool) bool {
	return redacted && strings.Contains(state, capture.RedactedValue)
}

// register adds a live interim result to the indexes.
func (s *Store) register(in *interim) {
	s.mrtr.live[in.call] = in
	if in.hasState {
		s.mrtr.byState[in.state] = append(s.mrtr.byState[in.state], in.call)
	}
	k := targetKey(in.method, in.target)
	s.mrtr.byTarget[k] = append(s.mrtr.byTarget[k], in.call)
}

// retire removes a retried interim result from the indexes.
func (s *Store) retire(in *interim) {
	delete(s.mrtr.live, in.call)
	if in.hasState {
		s.mrtr.byState[in.state] = without(s.mrtr.byState[in.state], in.call)
		if len(s.mrtr.byState[in.state]) == 0 {
			delete(s.mrtr.byState, in.state)
		}
	}
	k := targetKey(in.method, in.target)
	s.mrtr.byTarget[k] = without(s.mrtr.byTarget[k], in.call)
	if len(s.mrtr.byTarget[k]) == 0 {
		delete(s.mrtr.byTarget, k)
	}
}

func without(ids []int, id int) []int {
	if i := slices.Index(ids, id); i >= 0 {
		return slices.Delete(ids, i, i+1)
	}
	return ids
}
