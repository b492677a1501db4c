package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// MemberMeta is the name of the _meta member of params and results
// (spec 1.2): protocol bookkeeping, not an operation's payload.
const MemberMeta = "_meta"

// Meta returns the _meta member of a request's params or of a result;
// nil when absent.
func Meta(v jsontext.Value) jsontext.Value { return jsonraw.Member(v, MemberMeta) }

// TraceContext returns the W3C trace context a request's params._meta
// carries (traceparent and tracestate, as the OpenTelemetry MCP semantic
// conventions propagate it); each "" when absent or not a string. A
// string that does not unquote is returned as written.
func TraceContext(params jsontext.Value) (parent, state string) {
	meta := Meta(params)
	return looseString(jsonraw.Member(meta, "traceparent")), looseString(jsonraw.Member(meta, "tracestate"))
}

// ProgressToken returns params._meta.progressToken, raw (a string or a
// number); nil when absent.
func ProgressToken(params jsontext.Value) jsontext.Value {
	return jsonraw.Member(Meta(params), MemberProgressToken)
}

// MetaVersion returns the protocol version a modern request's
// params._meta names (MetaProtocolVersion); ok is false when absent or
// not a string.
func MetaVersion(params jsontext.Value) (v string, ok bool) {
	return jsonraw.String(jsonraw.Member(Meta(params), MetaProtocolVersion))
}

// looseString returns the raw JSON string v decoded, v as written when it
// does not decode, and "" when v is not a string.
func looseString(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	if s, ok := jsonraw.String(v); ok {
		return s
	}
	return string(v)
}
