package store

import (
	"bytes"
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// peerState remembers the raw self-descriptions last parsed, so that the
// identical clientInfo every modern request repeats is parsed once.
type peerState struct {
	clientInfo []byte
	serverInfo []byte
}

// clientDeclared records the client's capabilities and identity from a
// modern request's _meta or from initialize (spec 1.2, 3.1), reporting
// whether either changed.
func (s *Store) clientDeclared(req *mcp.Request) bool {
	cl := &s.sess.Client
	changed := false
	if req.ClientCapabilities != nil && !bytes.Equal(req.ClientCapabilities, cl.Capabilities) {
		cl.Capabilities = clone(req.ClientCapabilities)
		e := mcp.ElicitationModes(cl.Capabilities)
		cl.ElicitForm, cl.ElicitURL = e.Form, e.URL
		changed = true
	}
	if req.ClientInfo != nil && !bytes.Equal(req.ClientInfo, s.peers.clientInfo) {
		s.peers.clientInfo = clone(req.ClientInfo)
		im := mcp.ParseImplementation(req.ClientInfo)
		cl.Name, cl.Version = im.Name, im.Version
		changed = true
	}
	return changed
}

// serverDeclared records the server's capabilities and identity from the
// answer to initialize or server/discover, and its identity from any modern
// result's _meta serverInfo. An initialize result also fixes the legacy
// protocol version. It reports whether the capabilities or identity
// changed.
func (s *Store) serverDeclared(c *Call, res *mcp.Result) bool {
	if c.Dir != capture.C2S {
		return false
	}
	changed := false
	sv := &s.sess.Server
	info := res.MetaServerInfo
	switch c.Method {
	case mcp.MethodInitialize:
		if res.ServerInfo != nil {
			info = res.ServerInfo
		}
		if res.ProtocolVersion != "" {
			s.legacy.version = res.ProtocolVersion
			c.ProtocolVersion = res.ProtocolVersion
		}
		fallthrough
	case mcp.MethodDiscover:
		if res.SupportedVersions != nil && !slices.Equal(res.SupportedVersions, sv.SupportedVersions) {
			sv.SupportedVersions = slices.Clone(res.SupportedVersions)
			changed = true
		}
		if res.Capabilities != nil && !bytes.Equal(res.Capabilities, sv.Capabilities) {
			sv.Capabilities = clone(res.Capabilities)
			changed = true
		}
	}
	if info != nil && !bytes.Equal(info, s.peers.serverInfo) {
		s.peers.serverInfo = clone(info)
		im := mcp.ParseImplementation(info)
		sv.Name, sv.Version = im.Name, im.Version
		changed = true
	}
	return changed
}
