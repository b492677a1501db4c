package rules

import (
	"encoding/base64"
	"mime"
	"strings"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// HTTP checks the Streamable HTTP header rules (spec section 6, rules 54,
// 56, 57, 59 and 60), flags answers with an HTTP error status (httpfail.go)
// and the x-mcp-header annotations of every tools/list
// result (rule 49, any transport). It is a store.Check: give a new one to
// each store (it remembers the session's tools and notification POSTs).
type HTTP struct {
	raise func(finding.Finding) // set for the duration of Check
	// call is the index of the call the frame being checked concerns.
	call int
	// legacy is set once a legacy initialize request was seen: then
	// every POST must carry MCP-Protocol-Version.
	legacy bool
	// notifications maps the exchange of a client notification POST to
	// the notification's seq, until its answer is seen (rule 59).
	notifications map[string]uint64
	// tools maps a tool name to the x-mcp-header annotations its latest
	// tools/list gave (toolheaders.go); tools without any are left out.
	tools map[string]toolHeaders
	// failed holds the exchanges already flagged http-error-status.
	failed map[string]bool
	// anonymous holds the exchanges whose request carried no
	// Authorization, until their first answer frame.
	anonymous map[string]bool
}

// NewHTTP returns the HTTP rules of one session.
func NewHTTP() *HTTP { return &HTTP{} }

// Checks returns a new set of the rules that read frames, for one store's
// Options.Checks.
func Checks() []store.Check {
	return []store.Check{NewHTTP(), NewElicitation(), NewTools(), NewOAuth(), Skills{}, Apps{}, NewDeprecations(), ServerCards{}}
}

// Check runs the rules on one correlated frame.
func (h *HTTP) Check(f *store.Frame, raise func(finding.Finding)) {
	h.raise, h.call = raise, f.Call
	defer func() { h.raise = nil }()
	r, m := f.Record, f.Msg
	if r.HTTP != nil {
		h.failure(f)
		switch {
		case f.Kind == store.KindHTTPStatus:
			if r.Dir == capture.S2C {
				h.notificationAnswered(r)
			}
		case r.Dir == capture.C2S && !f.SSE:
			// The HTTP+SSE transport of 2024-11-05 defines no headers and
			// takes batches: the Streamable HTTP POST rules are not its.
			h.requestRules(r, m)
		case r.Dir == capture.C2S:
		default:
			h.responseRules(r, m, f.InExchange)
		}
	}
	if m.Kind == wire.KindResponse && f.Call >= 0 && f.CallMethod == "tools/list" && r.Dir == capture.S2C {
		h.toolsListed(r.Seq, m.Result)
	}
	h.sawInitialize(r, m)
}

// add raises a finding about the frame being checked.
func (h *HTTP) add(f finding.Finding) {
	if h.call >= 0 {
		f = f.OfCall(h.call)
	}
	h.raise(f)
}

// sawInitialize notes a client's legacy initialize request (the store's
// era rule: a request without the modern _meta).
func (h *HTTP) sawInitialize(r *capture.Record, m *wire.Frame) {
	if r.Dir != capture.C2S || h.legacy {
		return
	}
	is := func(m *wire.Frame) bool {
		return m.Kind == wire.KindRequest && m.Method == mcp.MethodInitialize && !m.ID.IsNull() &&
			!mcp.ParseRequest(m.Method, m.Params).Modern
	}
	h.legacy = is(m)
	for i := range m.Batch {
		h.legacy = h.legacy || is(&m.Batch[i])
	}
}

// requestRules checks a client POST's headers against its body (spec
// section 6, rules 54, 56 and 57).
func (h *HTTP) requestRules(r *capture.Record, f *wire.Frame) {
	env := r.HTTP
	if env.Method != "POST" {
		return
	}
	if f.Kind == wire.KindBatch {
		h.add(finding.New(finding.HTTPBatch, r.Seq,
			"POST body is a JSON-RPC batch of %d messages; Streamable HTTP takes one message per POST", len(f.Batch)))
		return
	}
	if f.Kind == wire.KindNotification && env.Exchange != "" {
		if h.notifications == nil {
			h.notifications = make(map[string]uint64)
		}
		h.notifications[env.Exchange] = r.Seq
	}
	hdr := env.Headers
	version, hasVersion := hdr[mcp.HeaderProtocolVersion]
	if f.Kind != wire.KindRequest {
		if !hasVersion && h.legacy {
			h.add(finding.New(finding.HTTPVersionHeader, r.Seq, "POST of %s has no MCP-Protocol-Version header", f.Describe()))
		}
		return
	}
	req := mcp.ParseRequest(f.Method, f.Params)
	switch {
	case req.Modern && !hasVersion:
		h.add(finding.New(finding.HTTPVersionHeader, r.Seq, "%s has no MCP-Protocol-Version header (_meta says %q)", f.Describe(), req.ProtocolVersion))
	case req.Modern && version != req.ProtocolVersion:
		h.add(finding.New(finding.HTTPVersionHeader, r.Seq, "%s: MCP-Protocol-Version %q differs from _meta's %q", f.Describe(), version, req.ProtocolVersion))
	case !req.Modern && f.Method != mcp.MethodInitialize && !hasVersion:
		h.add(finding.New(finding.HTTPVersionHeader, r.Seq, "%s has no MCP-Protocol-Version header", f.Describe()))
	}
	if !req.Modern {
		return
	}
	switch m, ok := hdr[mcp.HeaderMethod]; {
	case !ok:
		h.add(finding.New(finding.HTTPMethodHeader, r.Seq, "%s has no Mcp-Method header", f.Describe()))
	case m != f.Method:
		h.add(finding.New(finding.HTTPMethodHeader, r.Seq, "%s: Mcp-Method %q differs from the body's method", f.Describe(), m))
	}
	if mcp.TaskMethod(f.Method) {
		h.taskNameHeader(r, f, &req)
		return
	}
	if !mcp.NamedMethod(f.Method) {
		return
	}
	switch n, ok := hdr[mcp.HeaderName]; {
	case !ok:
		h.add(finding.New(finding.HTTPNameHeader, r.Seq, "%s has no Mcp-Name header", f.Describe()))
	case decodeHeaderValue(n) != req.Target:
		h.add(finding.New(finding.HTTPNameHeader, r.Seq, "%s: Mcp-Name %q differs from the body's %q", f.Describe(), n, req.Target))
	}
	if f.Method == mcp.MethodToolsCall {
		h.paramHeaders(r, &req)
	}
}

// taskNameHeader checks a tasks/* request's Mcp-Name against its
// params.taskId (ext-tasks § Streamable HTTP: Routing Headers). req.Target
// is the taskId; a request without one is the store's task-invalid.
func (h *HTTP) taskNameHeader(r *capture.Record, f *wire.Frame, req *mcp.Request) {
	if _, ok := mcp.TaskID(f.Params); !ok {
		return
	}
	switch n, ok := r.HTTP.Headers[mcp.HeaderName]; {
	case !ok:
		h.add(finding.New(finding.TaskNameHeader, r.Seq, "%s has no Mcp-Name header (params.taskId is %q)", f.Describe(), req.Target))
	case decodeHeaderValue(n) != req.Target:
		h.add(finding.New(finding.TaskNameHeader, r.Seq, "%s: Mcp-Name %q differs from params.taskId %q", f.Describe(), n, req.Target))
	}
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

// responseRules checks a message the server sent in an HTTP response
// (rules 59 and 60); inExchange says it travelled in the exchange of a
// client call still pending.
func (h *HTTP) responseRules(r *capture.Record, f *wire.Frame, inExchange bool) {
	env := r.HTTP
	if seq, ok := h.notifications[env.Exchange]; ok {
		delete(h.notifications, env.Exchange)
		if env.Status >= 200 && env.Status <= 299 {
			h.add(finding.New(finding.HTTPNotificationStatus, r.Seq,
				"the notification POSTed at seq %d was answered HTTP %d with a body; want 202 with none", seq, env.Status))
		}
	}
	if !inExchange || env.Status < 200 || env.Status > 299 {
		return
	}
	ct := env.Headers[mcp.HeaderContentType]
	mt, _, _ := mime.ParseMediaType(ct)
	if mt != mcp.MediaTypeJSON && mt != mcp.MediaTypeEventStream {
		h.add(finding.New(finding.HTTPContentType, r.Seq,
			"%s answered with Content-Type %q; want application/json or text/event-stream", f.Describe(), ct))
	}
}

// notificationAnswered checks the status frame answering a client
// notification POST (rule 59).
func (h *HTTP) notificationAnswered(r *capture.Record) {
	env := r.HTTP
	seq, ok := h.notifications[env.Exchange]
	if !ok {
		return
	}
	delete(h.notifications, env.Exchange)
	if env.Status >= 200 && env.Status <= 299 && env.Status != 202 {
		h.add(finding.New(finding.HTTPNotificationStatus, r.Seq,
			"the notification POSTed at seq %d was answered HTTP %d; want 202", seq, env.Status))
	}
}
