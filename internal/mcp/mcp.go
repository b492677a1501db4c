package mcp

import "github.com/mcptrail/mcptrail/internal/jsonraw"

// Protocol versions mcptrail knows.
const (
	Version20250618 = "2025-06-18"
	Version20251125 = "2025-11-25"
	Version20260728 = "2026-07-28"
)

// version returns the protocol version a raw JSON string holds, without
// allocating for the versions mcptrail knows (every modern request repeats
// one).
func version(v []byte) string {
	switch string(v) {
	case `"` + Version20260728 + `"`:
		return Version20260728
	case `"` + Version20251125 + `"`:
		return Version20251125
	case `"` + Version20250618 + `"`:
		return Version20250618
	}
	s, _ := jsonraw.String(v)
	return s
}

// Reserved `_meta` keys (spec 1.2).
const (
	// MetaProtocolVersion is carried by every modern request; its presence
	// is what makes a request modern.
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// MetaClientCapabilities is the ClientCapabilities of one modern request.
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaClientInfo is the client's Implementation on a modern request.
	MetaClientInfo = "io.modelcontextprotocol/clientInfo"
	// MetaServerInfo is the server's Implementation on a modern result.
	MetaServerInfo = "io.modelcontextprotocol/serverInfo"
)

// Result types (spec 1.3). A result without resultType is legacy and means
// ResultComplete.
const (
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)

// Methods the store treats specially.
const (
	MethodInitialize    = "initialize"
	MethodInitialized   = "notifications/initialized"
	MethodDiscover      = "server/discover"
	MethodToolsCall     = "tools/call"
	MethodPromptsGet    = "prompts/get"
	MethodResourcesRead = "resources/read"
	MethodCancelled     = "notifications/cancelled"
	MethodElicit        = "elicitation/create"
	MethodSampling      = "sampling/createMessage"
	MethodRootsList     = "roots/list"
	MethodPing          = "ping"
)

// Retryable reports whether method may be answered with an
// InputRequiredResult and retried (spec 2.2).
func Retryable(method string) bool {
	switch method {
	case MethodToolsCall, MethodPromptsGet, MethodResourcesRead:
		return true
	}
	return false
}

// ServerInitiated reports whether method is one of the legacy
// server-to-client requests (spec 1.14) that embed in inputRequests in
// 2026-07-28 (elicitation, sampling, roots) or were removed (ping).
func ServerInitiated(method string) bool {
	switch method {
	case MethodElicit, MethodSampling, MethodRootsList, MethodPing:
		return true
	}
	return false
}
