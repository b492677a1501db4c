package rules

import (
	"slices"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/oauth"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// deprecatedSpec is the registry of deprecated features the deprecation
// rules cite, by repository and path.
const deprecatedSpec = "modelcontextprotocol/modelcontextprotocol docs/specification/2026-07-28/deprecated.mdx "

// The earliest removals of the registry, verbatim where it has one.
const (
	removalSEP2577 = "it may be removed from the first revision released on or after 2027-07-28"
	removalTitled  = "the schema names no removal revision (\"will be removed in a future version\")"
	removalSEP2596 = "it may be removed three months after SEP-2596 reaches Final"
)

// Deprecations raises an info finding the first time a session's
// 2026-07-28 requests use a feature that revision deprecates: Sampling,
// Roots, the includeContext values thisServer and allServers, legacy
// titled enums (in inputRequests), Logging (a logLevel in a request's
// _meta, a notifications/message), the HTTP+SSE transport of 2024-11-05
// (a request POSTed to the endpoint an endpoint event named: store.Frame
// SSE). Dynamic client registration is the
// OAuth rules' (OAuth.Finish). The era is the request's (store.Call.Era),
// so a 2025 session, where these features are current, raises none. It
// belongs to one store.
type Deprecations struct {
	// seen holds the rule ids already raised (once per session).
	seen map[string]bool
	// modern and legacy report whether the client sent requests of each
	// era: a notifications/message outside any call counts only in a
	// session that sent modern requests and no legacy ones.
	modern, legacy bool
	// probe is the first modern server/discover POSTed over HTTP+SSE
	// (call index and seq; seq 0: none), judged at Finish: a dual-era
	// client's probe that the server refused before the client went on
	// with initialize (store.Call.Negotiation) is no 2026-07-28 use.
	probe struct {
		call int
		seq  uint64
	}
}

// NewDeprecations returns the deprecation rules of one session.
func NewDeprecations() *Deprecations { return &Deprecations{seen: map[string]bool{}} }

// Check implements store.Check.
func (d *Deprecations) Check(f *store.Frame, raise func(finding.Finding)) {
	m := f.Msg
	modern := f.CallEra == store.EraModern
	switch {
	case m.Kind == wire.KindRequest && f.Dir == capture.C2S:
		d.modern = d.modern || modern
		d.legacy = d.legacy || f.CallEra == store.EraLegacy
		switch {
		case !f.SSE || !modern:
		case m.Method == mcp.MethodDiscover:
			if d.probe.seq == 0 {
				d.probe.call, d.probe.seq = f.Call, f.Seq
			}
		case d.probe.seq != 0:
			// A modern request after the probe: the probe was the
			// transport's first 2026-07-28 use, not a refused era.
			d.once(raise, sseFinding(mcp.MethodDiscover, d.probe.seq, d.probe.call))
		default:
			d.once(raise, sseFinding(m.Method, f.Seq, f.Call))
		}
		if lvl, ok := mcp.LogLevel(m.Params); ok && modern {
			d.once(raise, finding.New(finding.DeprecatedLogging, f.Seq,
				"%s asks for log messages (_meta %s %q) in a 2026-07-28 request: Logging is deprecated in 2026-07-28 (SEP-2577), and %s",
				m.Method, mcp.MetaLogLevel, lvl, removalSEP2577).OfCall(f.Call))
		}
	case m.Kind == wire.KindResponse && f.Dir == capture.S2C && modern:
		for _, u := range mcp.InputDeprecations(m.Result) {
			d.once(raise, inputFinding(f, u))
		}
	case m.Kind == wire.KindNotification && f.Dir == capture.S2C && m.Method == mcp.MethodLogMessage:
		if (f.Call >= 0 && modern) || (f.Call < 0 && d.modern && !d.legacy) {
			fd := finding.New(finding.DeprecatedLogging, f.Seq,
				"the server sent %s in a 2026-07-28 session: Logging is deprecated in 2026-07-28 (SEP-2577), and %s",
				mcp.MethodLogMessage, removalSEP2577)
			if f.Call >= 0 {
				fd = fd.OfCall(f.Call)
			}
			d.once(raise, fd)
		}
	}
}

// Finish raises deprecated-http-sse at the first modern server/discover
// POSTed over HTTP+SSE when no other modern request raised it, once the
// probe was answered and was not the negotiation of a dual-era client
// with a 2025 server.
func (d *Deprecations) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	if d.probe.seq == 0 || d.seen[finding.DeprecatedHTTPSSE] || d.probe.call < 0 || d.probe.call >= s.Calls.Len() {
		return
	}
	if c := s.Calls.At(d.probe.call); c.Status != store.StatusPending && !c.Negotiation {
		raise(sseFinding(c.Method, d.probe.seq, d.probe.call))
	}
}

// sseFinding is the deprecated-http-sse finding of a modern request.
func sseFinding(method string, seq uint64, call int) finding.Finding {
	return finding.New(finding.DeprecatedHTTPSSE, seq,
		"%s, a 2026-07-28 request, was POSTed to the endpoint of the HTTP+SSE transport (%s): the transport is deprecated since 2025-03-26 (SEP-2596) in favour of Streamable HTTP, and %s",
		method, mcp.VersionHTTPSSE, removalSEP2596).OfCall(call)
}

// inputFinding is the finding of one deprecated inputRequests entry.
func inputFinding(f *store.Frame, u mcp.DeprecatedUse) finding.Finding {
	var fd finding.Finding
	switch u.Feature {
	case mcp.DeprecatedSampling:
		fd = finding.New(finding.DeprecatedSampling, f.Seq,
			"the %s interim result asks %s (inputRequests %q) of a 2026-07-28 client: Sampling is deprecated in 2026-07-28 (SEP-2577), and %s",
			f.CallMethod, mcp.MethodSampling, u.Key, removalSEP2577)
	case mcp.DeprecatedRoots:
		fd = finding.New(finding.DeprecatedRoots, f.Seq,
			"the %s interim result asks %s (inputRequests %q) of a 2026-07-28 client: Roots is deprecated in 2026-07-28 (SEP-2577), and %s",
			f.CallMethod, mcp.MethodRootsList, u.Key, removalSEP2577)
	case mcp.DeprecatedIncludeContext:
		fd = finding.New(finding.DeprecatedIncludeContext, f.Seq,
			"%s (inputRequests %q) uses includeContext %q, deprecated since 2025-11-25 (SEP-2596); its removal follows Sampling's: %s",
			mcp.MethodSampling, u.Key, u.Detail, removalSEP2577)
	default: // mcp.DeprecatedTitledEnum
		fd = finding.New(finding.DeprecatedTitledEnum, f.Seq,
			"field %q of %s (inputRequests %q) is a legacy titled enum (enum with enumNames), deprecated in favour of oneOf with const and title; %s",
			u.Detail, mcp.MethodElicit, u.Key, removalTitled)
	}
	return fd.OfCall(f.Call)
}

// once raises fd unless its rule was raised before in the session.
func (d *Deprecations) once(raise func(finding.Finding), fd finding.Finding) {
	if d.seen[fd.Rule] {
		return
	}
	d.seen[fd.Rule] = true
	raise(fd)
}

// registrationDeprecated raises deprecated-dynamic-registration at the
// first registration step of the session's flows when the session's
// requests are all 2026-07-28 ones: the flow carries no version of its
// own, and a dual-era or 2025 session may register as its revision asks.
func registrationDeprecated(s *store.Snapshot, flows []oauth.Flow, raise func(finding.Finding)) {
	if !slices.Equal(s.Session.Eras, []string{store.EraModern}) {
		return
	}
	for _, fl := range flows {
		for _, st := range fl.Steps {
			if st.Kind == oauth.StepRegistration {
				raiseAt(raise, st.Line, finding.New(finding.DeprecatedDCR, st.Seq,
					"the client registered dynamically (RFC 7591, %s) before 2026-07-28 requests: Dynamic Client Registration is deprecated in 2026-07-28 (PR #2858) in favour of Client ID Metadata Documents, and %s",
					st.URL, removalSEP2577))
				return
			}
		}
	}
}

// deprecationRules are the deprecation rules (deprecated.go).
func deprecationRules() []finding.Rule {
	const c = finding.Protocol
	const era = " Raised once per session, and only for 2026-07-28 requests: in a 2025 session the feature is current."
	return []finding.Rule{
		{ID: finding.DeprecatedSampling, Category: c, Severity: finding.Info,
			Summary: "a 2026-07-28 server asks sampling/createMessage, deprecated in 2026-07-28",
			Help: "Sampling is deprecated in 2026-07-28 (SEP-2577): still fully valid, but new implementations should not adopt it, " +
				"and it may be removed from the first revision released on or after 2027-07-28. Migrate by integrating directly with " +
				"LLM provider APIs." + era,
			Spec: deprecatedSpec + "(Sampling, SEP-2577)"},
		{ID: finding.DeprecatedRoots, Category: c, Severity: finding.Info,
			Summary: "a 2026-07-28 server asks roots/list, deprecated in 2026-07-28",
			Help: "Roots is deprecated in 2026-07-28 (SEP-2577) and may be removed from the first revision released on or after " +
				"2027-07-28. Pass directories or files via tool parameters, resource URIs or server configuration instead." + era,
			Spec: deprecatedSpec + "(Roots, SEP-2577)"},
		{ID: finding.DeprecatedLogging, Category: c, Severity: finding.Info,
			Summary: "a 2026-07-28 request asks for log messages (logLevel), or the server sends notifications/message",
			Help: "Logging is deprecated in 2026-07-28 (SEP-2577) and may be removed from the first revision released on or after " +
				"2027-07-28: a request's _meta io.modelcontextprotocol/logLevel and the notifications/message it opts into. Log to " +
				"stderr on stdio, and use OpenTelemetry for observability. A notifications/message outside any call counts in a " +
				"session whose requests are all 2026-07-28 ones." + era,
			Spec: deprecatedSpec + "(Logging, SEP-2577); MCP 2026-07-28 §1.7"},
		{ID: finding.DeprecatedIncludeContext, Category: c, Severity: finding.Info,
			Summary: "a sampling request uses includeContext thisServer or allServers",
			Help: "The includeContext values \"thisServer\" and \"allServers\" were deprecated in 2025-11-25 and are reclassified as " +
				"Deprecated by SEP-2596; their removal follows Sampling's. Omit the field or use \"none\"." + era,
			Spec: deprecatedSpec + "(includeContext, SEP-2596)"},
		{ID: finding.DeprecatedTitledEnum, Category: c, Severity: finding.Info,
			Summary: "an elicitation field is a legacy titled enum (enum with enumNames)",
			Help: "LegacyTitledEnumSchema (a string enum with enumNames) is kept for compatibility; the schema says to use " +
				"TitledSingleSelectEnumSchema (oneOf of {const, title}) instead and that it will be removed in a future version. " +
				"It is not in the deprecation registry, which names no removal revision for it." + era,
			Spec: "modelcontextprotocol/modelcontextprotocol schema/2026-07-28/schema.ts (LegacyTitledEnumSchema)"},
		{ID: finding.DeprecatedHTTPSSE, Category: c, Severity: finding.Info,
			Summary: "a 2026-07-28 request travels over the HTTP+SSE transport of 2024-11-05",
			Help: "The HTTP+SSE transport (a GET whose event stream opens with an endpoint event, messages POSTed to the URI " +
				"it names, answers arriving on the stream) has been deprecated since 2025-03-26 and is classified as Deprecated by " +
				"SEP-2596; it may be removed three months after SEP-2596 reaches Final. Migrate to Streamable HTTP. A request " +
				"POSTed to the endpoint an endpoint event named is judged by its own era; a dual-era client's server/discover " +
				"probe that the server refused before the client went on with initialize is not a use." + era,
			Spec: deprecatedSpec + "(HTTP+SSE transport, SEP-2596); docs/specification/2024-11-05/basic/transports.mdx (HTTP with SSE)"},
		{ID: finding.DeprecatedDCR, Category: finding.OAuth, Severity: finding.Info,
			Summary: "the client registered dynamically (RFC 7591) in a 2026-07-28 session",
			Help: "OAuth Dynamic Client Registration is deprecated in 2026-07-28 (PR #2858) in favour of Client ID Metadata " +
				"Documents, and may be removed from the first revision released on or after 2027-07-28. The flow carries no " +
				"protocol version: it is judged 2026-07-28 when every request of the session is.",
			Spec: deprecatedSpec + "(Dynamic Client Registration, PR #2858); " +
				"docs/specification/2026-07-28/basic/authorization/client-registration.mdx"},
	}
}
