package mock

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Script is what a mock can play, read from a snapshot: the client
// requests a live request can match, each with its recorded answer, and
// the later rounds of each MRTR operation. It is immutable once built.
type Script struct {
	entries []entry
	// rounds holds, by operation index, the operation's rounds after the
	// first: rounds[op][0] is round 2.
	rounds map[int][]round
	// Warnings says what of the capture the mock cannot play (invalid
	// frames, requests without an answer, server requests that belong to
	// no call), one sentence each.
	Warnings []string
}

// entry is one recorded client request a live request may match: a
// request that is not an MRTR retry.
type entry struct {
	call   int // the snapshot's call index
	method string
	target string
	// params is the request's params without _meta, requestState and
	// inputResponses, decoded; nil when absent. shown is its JSON.
	params any
	shown  string
	// response is the recorded answer's message; nil when none arrived.
	response []byte
	// status is the HTTP status the recorded answer came with when it
	// was an error status (400 and up); 0 otherwise, or over stdio.
	status int
	// op is the MRTR operation the request opened, or -1; asks lists the
	// inputRequests keys of its interim result.
	op   int
	asks []string
	// children are the legacy server requests the call carried, in order.
	children [][]byte
	// notes are the server notifications recorded while the call was in
	// flight, sent before its answer.
	notes [][]byte
}

// round is an MRTR retry: the recorded answer, and the keys the retry
// must answer (those of the previous round's inputRequests).
type round struct {
	call     int
	response []byte
	asks     []string // this round's own inputRequests keys
	needs    []string
	notes    [][]byte // as entry.notes
}

// NewScript reads the playable part of snap. Snapshot.Frame must be able
// to read its frames (store.Options.Source); an error reading one is
// returned.
func NewScript(snap *store.Snapshot) (*Script, error) {
	s := &Script{rounds: map[int][]round{}}
	s.damage(snap)
	children := map[int][][]byte{}
	byCall := map[int]int{} // call index → entries index
	for i := range snap.Calls.Len() {
		c := snap.Calls.At(i)
		if c.Dir == capture.S2C {
			if err := s.child(snap, &c, children); err != nil {
				return nil, err
			}
			continue
		}
		if c.Operation >= 0 && c.Round > 1 {
			continue // read with its operation
		}
		e, err := newEntry(snap, &c)
		if err != nil {
			return nil, err
		}
		if e.response == nil {
			s.warnf("call %d (%s) has no recorded answer; a match gets an error", c.Index, describe(e.method, e.target))
		}
		byCall[c.Index] = len(s.entries)
		s.entries = append(s.entries, e)
	}
	for parent, reqs := range children {
		if j, ok := byCall[parent]; ok {
			s.entries[j].children = reqs
		}
	}
	if err := s.readOperations(snap, byCall); err != nil {
		return nil, err
	}
	if err := s.readNotes(snap); err != nil {
		return nil, err
	}
	if len(s.entries) == 0 {
		return s, ErrEmpty
	}
	return s, nil
}

// ErrEmpty is NewScript's error for a capture with no client request to
// play; the Script it returns with it still holds the warnings.
var ErrEmpty = errors.New("the capture holds no client request to answer")

func (s *Script) warnf(format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, args...))
}

// damage warns of the frames the store could not read as messages (the
// lines the capture reader skipped are the caller's to report: they are
// in snap.Session.Damage).
func (s *Script) damage(snap *store.Snapshot) {
	if n := snap.Counts.Invalid; n > 0 {
		if n == 1 {
			s.warnf("1 frame of the capture is not a JSON-RPC message; it is skipped")
		} else {
			s.warnf("%d frames of the capture are not JSON-RPC messages; they are skipped", n)
		}
	}
}

// child files a legacy server request under the client call it
// interrupted.
func (s *Script) child(snap *store.Snapshot, c *store.Call, children map[int][][]byte) error {
	if c.Parent < 0 {
		s.warnf("server request %s (call %d) belongs to no client call; it is not sent", c.Method, c.Index)
		return nil
	}
	msg, err := frameMsg(snap, c.RequestSeq)
	if err != nil {
		return err
	}
	children[c.Parent] = append(children[c.Parent], msg)
	return nil
}

func newEntry(snap *store.Snapshot, c *store.Call) (entry, error) {
	e := entry{call: c.Index, method: c.Method, target: c.Target, op: c.Operation}
	msg, err := frameMsg(snap, c.RequestSeq)
	if err != nil {
		return e, err
	}
	f := wire.Decode(msg)
	e.params, e.shown = matchParams(f.Params)
	if c.ResponseSeq != 0 {
		if e.response, e.status, err = answerMsg(snap, c.ResponseSeq); err != nil {
			return e, err
		}
	}
	return e, nil
}

// readOperations fills the rounds of each MRTR operation whose root is an
// entry.
func (s *Script) readOperations(snap *store.Snapshot, byCall map[int]int) error {
	for _, op := range snap.Operations.All() {
		j, ok := byCall[op.Root]
		if !ok || len(op.Rounds) == 0 {
			continue
		}
		s.entries[j].asks = inputKeys(op.Rounds[0].InputRequests)
		var rounds []round
		for k := 1; k < len(op.Rounds); k++ {
			c := snap.Calls.At(op.Rounds[k].Call)
			r := round{call: c.Index, asks: inputKeys(op.Rounds[k].InputRequests),
				needs: inputKeys(op.Rounds[k-1].InputRequests)}
			if c.ResponseSeq != 0 {
				var err error
				if r.response, err = frameMsg(snap, c.ResponseSeq); err != nil {
					return err
				}
			}
			rounds = append(rounds, r)
		}
		s.rounds[op.Index] = rounds
	}
	return nil
}

func inputKeys(irs []store.InputRequest) []string {
	keys := make([]string, len(irs))
	for i, ir := range irs {
		keys[i] = ir.Key
	}
	return keys
}

// frameMsg reads the message of the frame with seq.
func frameMsg(snap *store.Snapshot, seq uint64) ([]byte, error) {
	rec, err := snap.Frame(seq)
	if err != nil {
		return nil, err
	}
	if len(rec.Msg) == 0 {
		return nil, fmt.Errorf("reading frame %d: not a JSON message", seq)
	}
	return rec.Msg, nil
}

// answerMsg reads the message of the answer frame with seq, and the HTTP
// error status (400 and up) it came with; 0 for another status or none.
func answerMsg(snap *store.Snapshot, seq uint64) ([]byte, int, error) {
	rec, err := snap.Frame(seq)
	if err != nil {
		return nil, 0, err
	}
	if len(rec.Msg) == 0 {
		return nil, 0, fmt.Errorf("reading frame %d: not a JSON message", seq)
	}
	status := 0
	if rec.HTTP != nil && rec.HTTP.Status >= 400 && rec.HTTP.Status <= 599 {
		status = rec.HTTP.Status
	}
	return rec.Msg, status, nil
}

// matchParams returns params without the members that never take part in
// matching (_meta, requestState, inputResponses), decoded, and as JSON for
// messages; nil and "" when params are absent or not an object.
func matchParams(params jsontext.Value) (any, string) {
	var m map[string]any
	if len(params) == 0 || json.Unmarshal(params, &m) != nil || m == nil {
		return nil, ""
	}
	delete(m, mcp.MemberMeta)
	delete(m, mcp.MemberRequestState)
	delete(m, mcp.MemberInputResponses)
	if len(m) == 0 {
		return nil, ""
	}
	b, err := json.Marshal(m, json.Deterministic(true))
	if err != nil {
		return m, ""
	}
	return m, string(b)
}

// describe names a request for messages: its method and target.
func describe(method, target string) string {
	if target == "" {
		return method
	}
	return method + " " + target
}

// handshake reports whether method is answered as recorded whatever its
// params: the handshake and discovery, whose params describe the client.
func handshake(method string) bool {
	return method == mcp.MethodInitialize || method == mcp.MethodDiscover
}
