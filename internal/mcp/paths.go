package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Member names of MRTR (spec 1.3, 4.x), for a caller that builds or strips
// them (a replayed retry, a mock's minted state, a matcher that ignores
// them).
const (
	MemberInputRequests  = "inputRequests"
	MemberInputResponses = "inputResponses"
	MemberRequestState   = "requestState"
	// MemberProgressToken is params._meta's progressToken on a request and
	// params' own on notifications/progress.
	MemberProgressToken = "progressToken"
)

// The single-member paths a replay or a mock reads off one message. Each
// reads the first member of the name (as jsonraw.Member does); a string
// that is absent or not a string reads as "".

// ToolName returns params.name of a tools/call (or prompts/get).
func ToolName(params jsontext.Value) string {
	s, _ := jsonraw.String(jsonraw.Member(params, "name"))
	return s
}

// ToolArguments returns params.arguments of a tools/call, raw; nil when
// absent.
func ToolArguments(params jsontext.Value) jsontext.Value {
	return jsonraw.Member(params, "arguments")
}

// NamedMethod reports whether a modern request of method carries Mcp-Name
// (spec 5.2): tools/call, prompts/get and resources/read.
func NamedMethod(method string) bool {
	return method == MethodToolsCall || method == MethodPromptsGet || method == MethodResourcesRead
}

// MirroredName returns the params member that Mcp-Name mirrors for a
// request of method: params.name of tools/call and prompts/get,
// params.uri of resources/read; "" for other methods.
func MirroredName(method string, params jsontext.Value) string {
	member := "name"
	switch method {
	case MethodToolsCall, MethodPromptsGet:
	case MethodResourcesRead:
		member = "uri"
	default:
		return ""
	}
	s, _ := jsonraw.String(jsonraw.Member(params, member))
	return s
}

// InitializeVersion returns result.protocolVersion of an initialize
// result; ok is false when absent or not a string.
func InitializeVersion(result jsontext.Value) (v string, ok bool) {
	return jsonraw.String(jsonraw.Member(result, "protocolVersion"))
}

// InputRequests returns result.inputRequests of an interim result, raw (an
// object from key to request); nil when absent.
func InputRequests(result jsontext.Value) jsontext.Value {
	return jsonraw.Member(result, MemberInputRequests)
}

// InputRequestMethod returns the method of one inputRequests entry.
func InputRequestMethod(entry jsontext.Value) string {
	s, _ := jsonraw.String(jsonraw.Member(entry, "method"))
	return s
}

// RequestState returns the requestState member of an interim result or a
// retry's params, raw; nil when absent.
func RequestState(v jsontext.Value) jsontext.Value {
	return jsonraw.Member(v, MemberRequestState)
}
