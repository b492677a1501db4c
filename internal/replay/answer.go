package replay

import (
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// answerQueue hands out a step's recorded answers to server-initiated
// requests, the first unused one of the method asked.
type answerQueue struct {
	answers []Answer
	used    []bool
}

func (q *answerQueue) take(method string) (jsontext.Value, bool) {
	if q.used == nil {
		q.used = make([]bool, len(q.answers))
	}
	for i, a := range q.answers {
		if !q.used[i] && a.Method == method {
			q.used[i] = true
			return a.Response, true
		}
	}
	return nil, false
}

// answer replies to a server-initiated request (legacy era) with the
// recorded answer: the step's own (by method, in order), else one of the
// session's whose method and params match (answerPool); an elicitation the recording has no answer for is
// cancelled, a ping is answered, anything else is refused, and both of
// those are reported.
func (d *driver) answer(f *wire.Frame, st *Step, q *answerQueue) error {
	if d.asked == nil {
		d.asked = make(map[string]int)
	}
	d.asked[f.Method]++
	if rec, ok := q.take(f.Method); ok {
		return d.send(response(rec, f.ID))
	}
	if rec, ok := d.pool.take(f.Method, f.Params); ok {
		return d.send(response(rec, f.ID))
	}
	switch f.Method {
	case "ping":
		return d.send(object([]member{{"jsonrpc", jsontext.Value(`"2.0"`)}, {"id", jsontext.Value(f.ID.Raw())}, {"result", jsontext.Value(`{}`)}}))
	case "elicitation/create":
		d.unanswered(st, "", f.Method)
		return d.send(object([]member{{"jsonrpc", jsontext.Value(`"2.0"`)}, {"id", jsontext.Value(f.ID.Raw())}, {"result", jsontext.Value(`{"action":"cancel"}`)}}))
	}
	d.unanswered(st, "", f.Method)
	return d.send(errorResponse(f.ID, -32601, "mcptrail replay: the recording holds no answer to "+f.Method))
}

// send writes msg to the server within the timeout.
func (d *driver) send(msg []byte) error { return d.c.send(msg, d.timeout) }

// paramSender is a transport that can give a request the Mcp-Param-*
// headers the recording kept (httpConn).
type paramSender interface {
	sendParams(msg []byte, params map[string]string, timeout time.Duration) error
}

// sendRequest sends a request of step st: over HTTP with its Mcp-Param-*
// headers (httpConn.paramHeaders says which).
func (d *driver) sendRequest(msg []byte, st *Step) error {
	if ps, ok := d.c.(paramSender); ok {
		return ps.sendParams(msg, st.ParamHeaders, d.timeout)
	}
	return d.send(msg)
}
