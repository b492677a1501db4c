package store

import "github.com/mcptrail/mcptrail/internal/capture"

// inflight tracks the client calls in flight (unanswered, uncancelled) by
// their count and the sum of their indexes: when one is left, the sum is
// its index. It costs two additions per call, where a set would cost a map
// insert and delete.
type inflight struct {
	n   int
	sum int
}

func (f *inflight) add(i int)    { f.n, f.sum = f.n+1, f.sum+i }
func (f *inflight) remove(i int) { f.n, f.sum = f.n-1, f.sum-i }

// single returns the one call in flight, if exactly one is.
func (f *inflight) single() (int, bool) { return f.sum, f.n == 1 }

// Attributions of a legacy server-initiated request (Call.Attribution).
const (
	AttrExact          = "exact"            // same HTTP exchange as the client call
	AttrSingleInFlight = "single-in-flight" // the only client call in flight
	AttrUnattributed   = "unattributed"     // none or several in flight
)

// attribute links a server-to-client request (legacy elicitation/create,
// sampling/createMessage, roots/list, ping) to the client call it
// interrupted (spec 3.8): exactly, when the tap saw it on that call's HTTP
// exchange; else the one client call in flight; else none. A cancelled
// call no longer counts as in flight.
func (s *Store) attribute(c *Call, r *capture.Record) {
	if r.HTTP != nil && r.HTTP.Exchange != "" {
		if p, ok := s.exchanges[r.HTTP.Exchange]; ok {
			c.Parent, c.Attribution = p, AttrExact
			return
		}
	}
	if p, ok := s.inflight.single(); ok {
		c.Parent, c.Attribution = p, AttrSingleInFlight
		return
	}
	c.Attribution = AttrUnattributed
}
