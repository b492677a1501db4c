package replay

import (
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// DefaultTimeout is how long a replay waits for the server's answer to one
// request when Options.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// maxRounds bounds the MRTR rounds of one call: a server that keeps asking
// cannot keep a replay going for ever.
const maxRounds = 32

// Result is what a replay did besides writing the new capture.
type Result struct {
	// Requests counts the requests sent, MRTR retries included.
	Requests int
	// Unanswered lists the questions the server asked that the recording
	// holds no answer for; each was cancelled (an elicitation) or refused
	// with a JSON-RPC error (another server request).
	Unanswered []Question
	// Skipped lists the tools/call steps not sent because their tool may
	// be destructive, in plan order; empty with AllowDestructive.
	Skipped []Skipped
	// lists holds the ids of the tools/list requests the replay sent of
	// its own to judge a call (listFor), which Compare leaves out.
	lists []wire.ID
}

// Question is a server question a replay could not answer from the
// recording.
type Question struct {
	// Call is the index of the recorded call it interrupted (-1 when it
	// came after the last call was answered); Method and Target name that
	// call.
	Call   int    `json:"call"`
	Method string `json:"method"`
	Target string `json:"target,omitempty"`
	// Key is the inputRequests key of an MRTR question; "" for a legacy
	// server-initiated request.
	Key string `json:"key,omitempty"`
	// Asked is the question's method (elicitation/create ...).
	Asked string `json:"asked"`
}

// transport is how a driver reaches the server: the stdio stream (conn)
// or Streamable HTTP POSTs (httpConn).
type transport interface {
	// send hands one JSON-RPC message to the server, waiting at most
	// timeout for it to be taken.
	send(msg []byte, timeout time.Duration) error
	// next returns the next message from the server, waiting until
	// deadline; timeout is what the error reports.
	next(deadline time.Time, timeout time.Duration) (wire.Frame, error)
}

// driver sends a plan's steps over one connection, one call at a time.
type driver struct {
	c       transport
	timeout time.Duration
	ids     int64
	res     Result
	// tools judges each tools/call when it is due; nil (AllowDestructive)
	// sends them all. run sets it from the plan.
	tools *toolJudge
	// pool answers the server's questions a step's own answers do not
	// cover; run sets it from the plan (nil answers none).
	pool *answerPool
	// asked counts the server's requests by method; nil before the first.
	asked map[string]int
	// upAt is when await first read a frame from the server: it was up.
	upAt time.Time
}

// run sends every step that is not skipped, a tools/call only when its tool
// is found not destructive; it stops at the first step the server failed
// to answer.
func (d *driver) run(p *Plan) error {
	if p.judge && d.tools == nil {
		d.tools = newToolJudge(p.recorded)
	}
	if d.pool == nil {
		d.pool = &answerPool{answers: p.pool}
	}
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Skip != "" {
			continue
		}
		if d.tools != nil && st.Method == "tools/call" {
			ok, err := d.allowed(st)
			if err != nil {
				return fmt.Errorf("replaying call %d (%s): %w", st.Call, describe(st.Method, st.Target), err)
			}
			if !ok {
				continue
			}
		}
		answered, err := d.step(st)
		if err != nil {
			return fmt.Errorf("replaying call %d (%s): %w", st.Call, describe(st.Method, st.Target), err)
		}
		if st.Method == "initialize" && answered {
			if err := d.send(notification("notifications/initialized")); err != nil {
				return err
			}
		}
	}
	return nil
}

// step sends one call and its MRTR retries; it reports whether the call
// ended with a result (not an error).
func (d *driver) step(st *Step) (bool, error) {
	params := st.Params
	q := &answerQueue{answers: st.Answers}
	for round := 0; ; round++ {
		d.ids++
		id := wire.IntID(d.ids)
		if err := d.sendRequest(request(d.ids, st.Method, params), st); err != nil {
			return false, err
		}
		d.res.Requests++
		f, err := d.await(id, st, q)
		if err != nil {
			return false, err
		}
		if st.Method == "tools/list" && f.Kind == wire.KindResponse && d.tools != nil {
			d.tools.learn(params, f.Result)
		}
		if f.Kind != wire.KindResponse || !isInputRequired(f.Result) {
			return f.Kind == wire.KindResponse, nil
		}
		if round+1 >= maxRounds {
			return false, fmt.Errorf("the server asked for input %d times in a row", maxRounds)
		}
		next, ok := d.retry(st, round, f.Result)
		if !ok {
			return true, nil
		}
		params = next
	}
}

// await reads frames until the answer to id, answering the server's own
// requests meanwhile; it gives up Options.Timeout after it started.
func (d *driver) await(id wire.ID, st *Step, q *answerQueue) (wire.Frame, error) {
	deadline := time.Now().Add(d.timeout)
	for {
		f, err := d.c.next(deadline, d.timeout)
		if err != nil {
			return f, err
		}
		if d.upAt.IsZero() {
			d.upAt = time.Now()
		}
		switch f.Kind {
		case wire.KindResponse, wire.KindError:
			if f.ID == id {
				return f, nil
			}
		case wire.KindRequest:
			if err := d.answer(&f, st, q); err != nil {
				return f, err
			}
		case wire.KindNotification:
			if f.Method == mcp.MethodToolsListChanged && d.tools != nil {
				d.tools.changed()
			}
		}
	}
}

// retry builds the params of the retry that answers an input_required
// result in round (0-based) of st, or reports false when the recorded
// client gave up at this round.
func (d *driver) retry(st *Step, round int, result jsontext.Value) (jsontext.Value, bool) {
	if round >= len(st.Retries) && st.Abandoned {
		return nil, false
	}
	base := st.Params
	if round < len(st.Retries) {
		base = st.Retries[round]
	}
	var answers []member
	for _, asked := range members(mcp.InputRequests(result)) {
		v, ok := recordedResponse(st, round, asked.name)
		if !ok {
			method := mcp.InputRequestMethod(asked.val)
			d.unanswered(st, asked.name, method)
			if method != mcp.MethodElicit {
				continue
			}
			v = jsontext.Value(`{"action":"cancel"}`)
		}
		answers = append(answers, member{asked.name, v})
	}
	set := []member{{mcp.MemberInputResponses, object(answers)}}
	if rs := mcp.RequestState(result); rs != nil {
		return withMembers(base, append(set, member{mcp.MemberRequestState, clone(rs)})), true
	}
	return withMembers(base, set, mcp.MemberRequestState), true
}

// recordedResponse finds the recorded answer to the inputRequests key: in
// the retry of the same round first, else in any retry of the call.
func recordedResponse(st *Step, round int, key string) (jsontext.Value, bool) {
	if round < len(st.Retries) {
		if v := mcp.InputResponse(st.Retries[round], key); v != nil {
			return clone(v), true
		}
	}
	for _, r := range st.Retries {
		if v := mcp.InputResponse(r, key); v != nil {
			return clone(v), true
		}
	}
	return nil, false
}

func (d *driver) unanswered(st *Step, key, asked string) {
	d.res.Unanswered = append(d.res.Unanswered, Question{Call: st.Call, Method: st.Method, Target: st.Target, Key: key, Asked: asked})
}

// describe names a call: its method and target.
func describe(method, target string) string {
	if target == "" {
		return method
	}
	return method + " " + target
}
