package mcp

import (
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Request is what correlation needs from a request's params. Raw values
// alias the params they were parsed from; copy them to keep them.
type Request struct {
	// Modern reports whether params._meta carried the protocolVersion key,
	// which makes the request modern (spec 0). ProtocolVersion is its
	// value when it was a string.
	Modern          bool
	ProtocolVersion string
	// ClientCapabilities is _meta's clientCapabilities on a modern request
	// or params.capabilities on initialize; nil when absent.
	ClientCapabilities jsontext.Value
	// ClientInfo is _meta's clientInfo or initialize's params.clientInfo;
	// nil when absent. Read it with ParseImplementation.
	ClientInfo jsontext.Value
	// InitVersion is initialize's params.protocolVersion.
	InitVersion string
	// Target is params.name, else params.uri, when it is a string; a
	// tasks/* request's params.taskId.
	Target string
	// Arguments is params.arguments; nil when absent.
	Arguments jsontext.Value
	// HasInputResponses and InputResponseKeys (sorted) describe
	// params.inputResponses.
	HasInputResponses bool
	InputResponseKeys []string
	// HasRequestState and RequestState describe params.requestState. The
	// state is compared as the string it decodes to, byte for byte.
	HasRequestState bool
	RequestState    string
}

// IsRetry reports whether the request carries MRTR retry members.
func (r *Request) IsRetry() bool { return r.HasInputResponses || r.HasRequestState }

// ParseRequest reads the members of a request's params that correlation
// uses. Absent or non-object params give the zero Request.
func ParseRequest(method string, params jsontext.Value) Request {
	var r Request
	var meta, caps, info []byte
	eachMember(params, func(name, val []byte) bool {
		switch string(name) {
		case "_meta":
			meta = val
		case "name":
			if s, ok := jsonraw.String(val); ok {
				r.Target = s
			}
		case "uri":
			if s, ok := jsonraw.String(val); ok && r.Target == "" {
				r.Target = s
			}
		case "taskId":
			// A tasks/* request names its task (ext-tasks § Streamable
			// HTTP: Routing Headers: Mcp-Name mirrors it).
			if s, ok := jsonraw.String(val); ok && TaskMethod(method) {
				r.Target = s
			}
		case "arguments":
			r.Arguments = val
		case "inputResponses":
			r.HasInputResponses = true
			r.InputResponseKeys = objectKeys(val)
		case "requestState":
			r.HasRequestState = true
			r.RequestState, _ = jsonraw.String(val)
		case "capabilities":
			caps = val
		case "clientInfo":
			info = val
		case "protocolVersion":
			r.InitVersion, _ = jsonraw.String(val)
		}
		return true
	})
	if method == MethodInitialize {
		r.ClientCapabilities, r.ClientInfo = caps, info
	} else {
		r.InitVersion = ""
	}
	if meta != nil {
		r.readMeta(meta)
	}
	return r
}

// readMeta reads the reserved _meta keys of a request.
func (r *Request) readMeta(meta []byte) {
	eachMember(meta, func(name, val []byte) bool {
		switch string(name) {
		case MetaProtocolVersion:
			r.Modern = true
			r.ProtocolVersion = version(val)
		case MetaClientCapabilities:
			r.ClientCapabilities = val
		case MetaClientInfo:
			r.ClientInfo = val
		}
		return true
	})
}

// objectKeys returns the sorted member names of a JSON object; nil when it
// is empty or not an object.
func objectKeys(v []byte) []string {
	var keys []string
	eachMember(v, func(name, _ []byte) bool {
		keys = append(keys, string(name))
		return true
	})
	slices.Sort(keys)
	return keys
}

// CancelledRequestID returns the raw JSON token of a
// notifications/cancelled requestId, or "" when it is absent or neither a
// string nor a number.
func CancelledRequestID(params jsontext.Value) string {
	var id string
	eachMember(params, func(name, val []byte) bool {
		if string(name) != "requestId" {
			return true
		}
		if len(val) > 0 && (val[0] == '"' || val[0] == '-' || (val[0] >= '0' && val[0] <= '9')) {
			id = string(val)
		}
		return false
	})
	return id
}
