package replay

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcptrail/mcptrail/internal/wire"
)

// timedServer is a transport whose server sends one request at a set
// time; what the driver sends back is counted.
type timedServer struct {
	at   time.Time
	req  wire.Frame
	sent int
}

func (s *timedServer) send([]byte, time.Duration) error { s.sent++; return nil }

func (s *timedServer) next(deadline time.Time, _ time.Duration) (wire.Frame, error) {
	if s.at.IsZero() || s.at.After(deadline) {
		time.Sleep(time.Until(deadline))
		return wire.Frame{}, ErrTimeout
	}
	time.Sleep(time.Until(s.at))
	s.at = time.Time{}
	return s.req, nil
}

// TestSettleCountsFromServerUp: the recording's server asked roots/list
// 250 ms after it first answered (350 ms into the session). A replay whose
// server came up 3 s late (a cold node start on a loaded machine) still
// waits for that question, counted from when this server first answered,
// instead of giving up 1.35 s after the start and leaving the server with
// a request pending at EOF.
func TestSettleCountsFromServerUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := &Plan{pool: []Answer{{Method: "roots/list", Response: []byte(`{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`)}},
			lastAsk: 350 * time.Millisecond, firstAnswer: 100 * time.Millisecond}
		up := start.Add(3 * time.Second)
		srv := &timedServer{at: up.Add(250 * time.Millisecond), req: wire.Decode([]byte(`{"jsonrpc":"2.0","id":0,"method":"roots/list"}`))}
		d := &driver{c: srv, timeout: 20 * time.Second, upAt: up, pool: &answerPool{answers: p.pool}}
		time.Sleep(time.Until(up.Add(100 * time.Millisecond))) // the calls ran until now
		d.settle(p, start)
		if d.asked["roots/list"] != 1 || srv.sent != 1 {
			t.Errorf("the server's roots/list was asked %d times, answered %d, want once each", d.asked["roots/list"], srv.sent)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("settle took %v after the start, want it to stop once nothing is due", took)
		}
	})
}
