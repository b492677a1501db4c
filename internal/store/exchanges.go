package store

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// Exchange is one HTTP exchange that carried no MCP message (a
// capture.TypeExchange record: OAuth discovery, registration, token
// requests, documents) or a CONNECT tunnel relayed blind (Tunnel set), in
// capture order. The store keeps them as they were recorded and pairs
// nothing with them: internal/oauth reads the authorization flow out of
// them and the calls.
type Exchange struct {
	Seq    uint64
	Line   int
	Time   time.Time
	Tunnel bool
	// Exchange is the record's body; shared, never modified.
	*capture.Exchange
}

// Exchanges lists a session's exchanges in capture order. A snapshot
// shares the store's slice up to its own length; the store only appends.
type Exchanges []Exchange

// exchange keeps an exchange or tunnel record.
func (s *Store) exchange(r *capture.Record) {
	if r.Exchange == nil || s.opts.Forget {
		return
	}
	s.xchg = append(s.xchg, Exchange{Seq: r.Seq, Line: r.Line, Time: r.Time,
		Tunnel: r.Type == capture.TypeTunnel, Exchange: r.Exchange})
}
