package store

import (
	"encoding/base64"
	"mime"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// httpState is what the HTTP rules remember between frames.
type httpState struct {
	// notifications maps the exchange of a client notification POST to
	// the notification's seq, until its answer is seen (rule 59).
	notifications map[string]uint64
	// tools maps a tool name to the x-mcp-header annotations its latest
	// tools/list gave (toolheaders.go); tools without any are left out.
	tools map[string]toolHeaders
}

// httpRequestRules checks a client POST's headers against its body (spec
// section 6, rules 54, 56 and 57).
func (s *Store) httpRequestRules(r *capture.Record, f *wire.Frame) {
	env := r.HTTP
	if env.Method != "POST" {
		return
	}
	if f.Kind == wire.KindBatch {
		s.raise(finding.New(finding.HTTPBatch, r.Seq,
			"POST body is a JSON-RPC batch of %d messages; Streamable HTTP takes one message per POST", len(f.Batch)))
		return
	}
	if f.Kind == wire.KindNotification && env.Exchange != "" {
		if s.http.notifications == nil {
			s.http.notifications = make(map[string]uint64)
		}
		s.http.notifications[env.Exchange] = r.Seq
	}
	h := env.Headers
	version, hasVersion := h["MCP-Protocol-Version"]
	if f.Kind != wire.KindRequest {
		if !hasVersion && s.legacy.seen {
			s.raise(finding.New(finding.HTTPVersionHeader, r.Seq, "POST of %s has no MCP-Protocol-Version header", describe(f)))
		}
		return
	}
	req := mcp.ParseRequest(f.Method, f.Params)
	switch {
	case req.Modern && !hasVersion:
		s.raise(finding.New(finding.HTTPVersionHeader, r.Seq, "%s has no MCP-Protocol-Version header (_meta says %q)", describe(f), req.ProtocolVersion))
	case req.Modern && version != req.ProtocolVersion:
		s.raise(finding.New(finding.HTTPVersionHeader, r.Seq, "%s: MCP-Protocol-Version %q differs from _meta's %q", describe(f), version, req.ProtocolVersion))
	case !req.Modern && f.Method != mcp.MethodInitialize && !hasVersion:
		s.raise(finding.New(finding.HTTPVersionHeader, r.Seq, "%s has no MCP-Protocol-Version header", describe(f)))
	}
	if !req.Modern {
		return
	}
	switch m, ok := h["Mcp-Method"]; {
	case !ok:
		s.raise(finding.New(finding.HTTPMethodHeader, r.Seq, "%s has no Mcp-Method header", describe(f)))
	case m != f.Method:
		s.raise(finding.New(finding.HTTPMethodHeader, r.Seq, "%s: Mcp-Method %q differs from the body's method", describe(f), m))
	}
	if !namedMethod(f.Method) {
		return
	}
	switch n, ok := h["Mcp-Name"]; {
	case !ok:
		s.raise(finding.New(finding.HTTPNameHeader, r.Seq, "%s has no Mcp-Name header", describe(f)))
	case decodeHeaderValue(n) != req.Target:
		s.raise(finding.New(finding.HTTPNameHeader, r.Seq, "%s: Mcp-Name %q differs from the body's %q", describe(f), n, req.Target))
	}
	if f.Method == mcp.MethodToolsCall {
		s.paramHeaders(r, &req)
	}
}

// namedMethod reports whether a request must carry Mcp-Name.
func namedMethod(m string) bool {
	return m == "tools/call" || m == "prompts/get" || m == "resources/read"
}

// decodeHeaderValue undoes the =?base64?…?= sentinel encoding of Mcp-Name
// and Mcp-Param-* values (spec 5.2); other values are returned as they are.
func decodeHeaderValue(v string) string {
	const pre, post = "=?base64?", "?="
	if !strings.HasPrefix(v, pre) || !strings.HasSuffix(v, post) || len(v) < len(pre)+len(post) {
		return v
	}
	b, err := base64.StdEncoding.DecodeString(v[len(pre) : len(v)-len(post)])
	if err != nil {
		return v
	}
	return string(b)
}

// httpResponseRules checks a message the server sent in an HTTP response
// (rules 59 and 60).
func (s *Store) httpResponseRules(r *capture.Record, f *wire.Frame) {
	env := r.HTTP
	if seq, ok := s.http.notifications[env.Exchange]; ok {
		delete(s.http.notifications, env.Exchange)
		if env.Status >= 200 && env.Status <= 299 {
			s.raise(finding.New(finding.HTTPNotificationStatus, r.Seq,
				"the notification POSTed at seq %d was answered HTTP %d with a body; want 202 with none", seq, env.Status))
		}
	}
	if _, ok := s.exchanges[env.Exchange]; !ok || env.Status < 200 || env.Status > 299 {
		return
	}
	ct := env.Headers["Content-Type"]
	mt, _, _ := mime.ParseMediaType(ct)
	if mt != "application/json" && mt != "text/event-stream" {
		s.raise(finding.New(finding.HTTPContentType, r.Seq,
			"%s answered with Content-Type %q; want application/json or text/event-stream", describe(f), ct))
	}
}

// httpNotificationAnswered checks the status frame answering a client
// notification POST (rule 59).
func (s *Store) httpNotificationAnswered(r *capture.Record) {
	env := r.HTTP
	seq, ok := s.http.notifications[env.Exchange]
	if !ok {
		return
	}
	delete(s.http.notifications, env.Exchange)
	if env.Status >= 200 && env.Status <= 299 && env.Status != 202 {
		s.raise(finding.New(finding.HTTPNotificationStatus, r.Seq,
			"the notification POSTed at seq %d was answered HTTP %d; want 202", seq, env.Status))
	}
}
