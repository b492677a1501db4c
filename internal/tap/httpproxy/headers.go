package httpproxy

import (
	"net/http"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// keptRequest and keptResponse name the headers a frame's envelope keeps,
// in the spelling the capture uses. Mcp-Param-* request headers are kept
// too. Authorization and Cookie are kept only as presence (see redactAuth).
func keptRequest() []string {
	return []string{
		mcp.HeaderContentType, mcp.HeaderAccept, mcp.HeaderProtocolVersion, mcp.HeaderMethod, mcp.HeaderName,
		mcp.HeaderSessionID, mcp.HeaderLastEventID, mcp.HeaderOrigin,
	}
}

func keptResponse() []string {
	return []string{mcp.HeaderContentType, mcp.HeaderProtocolVersion, mcp.HeaderSessionID, mcp.HeaderWWWAuthenticate, mcp.HeaderDPoPNonce}
}

// requestHeaders returns the envelope headers of a request.
func requestHeaders(h http.Header) map[string]string {
	out := pick(h, keptRequest())
	for k, v := range h {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), mcp.HeaderParamPrefix) {
			out = put(out, http.CanonicalHeaderKey(k), strings.Join(v, ", "))
		}
	}
	if v := h.Values(mcp.HeaderAuthorization); len(v) > 0 {
		out = put(out, mcp.HeaderAuthorization, redactAuth(v[0]))
	}
	if len(h.Values(mcp.HeaderCookie)) > 0 {
		out = put(out, mcp.HeaderCookie, present)
	}
	if v := h.Values(mcp.HeaderDPoP); len(v) > 0 {
		out = put(out, mcp.HeaderDPoP, mcp.StripDPoP(v[0]))
	}
	return out
}

// responseHeaders returns the envelope headers of a response.
func responseHeaders(h http.Header) map[string]string {
	out := pick(h, keptResponse())
	if len(h.Values(mcp.HeaderSetCookie)) > 0 {
		out = put(out, mcp.HeaderSetCookie, present)
	}
	return out
}

// present stands in for a secret header's value.
const present = "[present]"

// redactAuth keeps an Authorization header's scheme only: "Bearer
// [present]". A value without a scheme becomes "[present]". A DPoP token
// also keeps its SHA-256, which its proof's ath must equal (RFC 9449
// §4.2) and which the proof carries anyway: "DPoP [present] sha256=…".
func redactAuth(v string) string {
	if kept, ok := mcp.KeptDPoPAuth(v); ok {
		return kept
	}
	v = strings.TrimSpace(v)
	scheme, _, found := strings.Cut(v, " ")
	if !found || len(scheme) > 32 || !mcp.IsToken(scheme) {
		return present
	}
	return scheme + " " + present
}

func pick(h http.Header, names []string) map[string]string {
	var out map[string]string
	for _, n := range names {
		if v := h.Values(n); len(v) > 0 {
			out = put(out, n, strings.Join(v, ", "))
		}
	}
	return out
}

func put(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = make(map[string]string, 4)
	}
	m[k] = v
	return m
}
