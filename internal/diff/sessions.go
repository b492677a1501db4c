package diff

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Sessions compares session a with session b. The calls' arguments and
// results are read back with Snapshot.Frame, so each snapshot needs its
// frames (store.Options.Source or KeepFrames); a call whose frame the
// snapshot cannot give compares by method, target and status only. An
// error reading a frame from its source is returned.
func Sessions(a, b *store.Snapshot, opts Options) (*Report, error) {
	ca, err := clientCalls(a)
	if err != nil {
		return nil, fmt.Errorf("reading session %s: %w", a.Session.ID, err)
	}
	cb, err := clientCalls(b)
	if err != nil {
		return nil, fmt.Errorf("reading session %s: %w", b.Session.ID, err)
	}
	r := &Report{
		A:       Side{Session: a.Session.ID, Label: a.Session.Label, Calls: len(ca)},
		B:       Side{Session: b.Session.ID, Label: b.Session.Label, Calls: len(cb)},
		Catalog: compareCatalogs(a.Catalog, b.Catalog),
		Ledger:  compareLedgers(a.Ledger.Slice(), b.Ledger.Slice()),
		Findings: Findings{
			New:  onlyIn(findingRefs(b), findingRefs(a)),
			Gone: onlyIn(findingRefs(a), findingRefs(b)),
		},
		Latency: compareLatency(&a.Summary, &b.Summary, &opts),
	}
	r.Calls = compareCalls(ca, cb, &opts)
	return r, nil
}

// call is what the comparison knows of one client call (an MRTR
// operation counting once).
type call struct {
	ref    CallRef
	status string
	err    *store.CallError
	result jsontext.Value // the final answer's result; nil when none
	ms     float64        // the duration (an operation's tool time)
	rounds int
	mrtr   bool
}

// key is what matches two calls.
func (c *call) key() string {
	return c.ref.Method + "\x00" + c.ref.Target + "\x00" + c.ref.Arguments
}

// clientCalls lists the session's client calls in order, each MRTR
// operation once (at its root).
func clientCalls(s *store.Snapshot) ([]call, error) {
	var out []call
	for i := range s.Calls.Len() {
		c := s.Calls.At(i)
		if c.Dir != capture.C2S || c.Operation >= 0 && c.Round > 1 {
			continue
		}
		cc := call{ref: CallRef{Method: c.Method, Target: c.Target, Index: c.Index, Seq: c.RequestSeq},
			status: c.Status, err: c.Error, ms: c.DurationMS, rounds: 1}
		final := c
		if c.Operation >= 0 && c.Operation < s.Operations.Len() {
			op := s.Operations.At(c.Operation)
			if n := len(op.Rounds); n > 0 {
				final = s.Calls.At(op.Rounds[n-1].Call)
			}
			cc.status, cc.err, cc.ms, cc.rounds, cc.mrtr = op.Status, final.Error, op.ToolMS, len(op.Rounds), true
		}
		req, err := message(s, c.RequestSeq)
		if err != nil {
			return nil, err
		}
		cc.ref.Arguments = mcp.CanonicalArguments(mcp.ParseRequest(c.Method, req.Params).Arguments)
		if final.ResponseSeq != 0 && final.Status != store.StatusInputRequired {
			resp, err := message(s, final.ResponseSeq)
			if err != nil {
				return nil, err
			}
			cc.result = resp.Result
		}
		out = append(out, cc)
	}
	return out, nil
}

// message decodes the frame at seq; a frame the snapshot does not hold
// decodes as the zero Frame.
func message(s *store.Snapshot, seq uint64) (wire.Frame, error) {
	rec, err := s.Frame(seq)
	if errors.Is(err, store.ErrNoFrame) {
		return wire.Frame{}, nil
	}
	if err != nil {
		return wire.Frame{}, err
	}
	if len(rec.Msg) == 0 {
		return wire.Frame{}, nil
	}
	return wire.Decode(rec.Msg), nil
}
