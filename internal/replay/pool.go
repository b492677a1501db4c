package replay

import (
	"reflect"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// settleSlack is how long after the recorded time of the server's last
// question a replay that has no call left still waits for it (a server
// that asks on a timer, as server-everything's roots/list 350 ms after
// initialized).
const settleSlack = time.Second

// answerPool holds the recorded answers to every server-initiated request
// of the session, whichever call (if any) it interrupted: a question the
// step's own answers do not cover is answered from here when its method
// and params (without _meta) match a recorded one, as mock matches.
type answerPool struct {
	answers []Answer
	used    []bool
}

// take returns the recorded answer to a request of method with params:
// the first unused one that matches, else the last one used that matches
// (a server may ask again what it asked before, such as roots/list).
func (p *answerPool) take(method string, params jsontext.Value) (jsontext.Value, bool) {
	if p == nil {
		return nil, false
	}
	if p.used == nil {
		p.used = make([]bool, len(p.answers))
	}
	live := matchValue(params)
	last := -1
	for i, a := range p.answers {
		if a.Method != method || !reflect.DeepEqual(matchValue(a.Params), live) {
			continue
		}
		if !p.used[i] {
			p.used[i] = true
			return a.Response, true
		}
		last = i
	}
	if last >= 0 {
		return p.answers[last].Response, true
	}
	return nil, false
}

// matchValue is params decoded without _meta; nil when absent, empty or
// not an object.
func matchValue(params jsontext.Value) map[string]any {
	var m map[string]any
	if len(params) == 0 || json.Unmarshal(params, &m) != nil {
		return nil
	}
	delete(m, mcp.MemberMeta)
	if len(m) == 0 {
		return nil
	}
	return m
}

// due reports whether the recording's server asked a method more often
// than the replay's server has so far.
func (d *driver) due(p *Plan) bool {
	for _, a := range p.pool {
		n := 0
		for _, b := range p.pool {
			if b.Method == a.Method {
				n++
			}
		}
		if d.asked[a.Method] < n {
			return true
		}
	}
	return false
}

// settle answers the server's questions once every call was sent, for as
// long as the recording says more are due (due): until the recorded time
// of the server's last question, counted from start, plus settleSlack,
// and never longer than the timeout. When the server was slower to come
// up than in the recording (its first answer later), the wait is counted
// from its first answer instead, as the recording's was: a server that
// asks on a timer asks that much later too. A question that does not come
// is not an error: the session then ends as it would have.
func (d *driver) settle(p *Plan, start time.Time) {
	deadline := start.Add(p.lastAsk + settleSlack)
	if up := d.upAt; !up.IsZero() && p.lastAsk > p.firstAnswer {
		if later := up.Add(p.lastAsk - p.firstAnswer + settleSlack); later.After(deadline) {
			deadline = later
		}
	}
	if limit := time.Now().Add(d.timeout); limit.Before(deadline) {
		deadline = limit
	}
	after := &Step{Call: -1}
	for d.due(p) {
		f, err := d.c.next(deadline, d.timeout)
		if err != nil {
			return
		}
		if f.Kind == wire.KindRequest {
			if err := d.answer(&f, after, new(answerQueue)); err != nil {
				return
			}
		}
	}
}
