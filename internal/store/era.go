package store

import (
	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// legacyState is the session's initialize handshake, if any. It is kept
// per session rather than per connection: on HTTP a legacy session spans
// many exchanges.
type legacyState struct {
	seen    bool
	version string // requested by initialize, then the negotiated one
}

// classify sets a request's era and protocol version (spec 0): modern when
// params._meta carries the protocol version; legacy for initialize, for any
// request after it, and for every server-to-client request (modern servers
// send none); otherwise unknown ("").
func (s *Store) classify(c *Call, req *mcp.Request) {
	switch {
	case req.Modern:
		c.Era, c.ProtocolVersion = EraModern, s.names.intern(req.ProtocolVersion)
	case c.Method == mcp.MethodInitialize && c.Dir == capture.C2S:
		s.legacy.seen = true
		s.legacy.version = req.InitVersion
		c.Era, c.ProtocolVersion = EraLegacy, req.InitVersion
	case s.legacy.seen || c.Dir == capture.S2C:
		c.Era, c.ProtocolVersion = EraLegacy, s.legacy.version
	}
}
