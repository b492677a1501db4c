package mcp

import (
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// InputRequest is one entry of an InputRequiredResult's inputRequests: the
// server-chosen key and the embedded request's method.
type InputRequest struct {
	Key    string
	Method string
}

// Result is what correlation needs from a result. Raw values alias the
// result they were parsed from; copy them to keep them.
type Result struct {
	// ResultType is result.resultType; "" for a legacy result (which means
	// ResultComplete).
	ResultType string
	// IsError reports result.isError == true (a tool error).
	IsError bool
	// HasInputRequests and InputRequests (sorted by key) describe
	// result.inputRequests.
	HasInputRequests bool
	InputRequests    []InputRequest
	// HasRequestState and RequestState describe result.requestState.
	HasRequestState bool
	RequestState    string
	// Capabilities is result.capabilities (initialize, server/discover).
	Capabilities jsontext.Value
	// ServerInfo is result.serverInfo (initialize); MetaServerInfo is
	// result._meta's serverInfo (any modern result). Nil when absent.
	ServerInfo     jsontext.Value
	MetaServerInfo jsontext.Value
	// ProtocolVersion is result.protocolVersion (initialize).
	ProtocolVersion string
	// SupportedVersions is result.supportedVersions (server/discover);
	// nil when absent.
	SupportedVersions []string
}

// InputRequired reports whether the result is an MRTR interim result.
func (r *Result) InputRequired() bool { return r.ResultType == ResultInputRequired }

// ParseResult reads the members of a result that correlation uses.
func ParseResult(result jsontext.Value) Result {
	var r Result
	var meta, inputs []byte
	eachMember(result, func(name, val []byte) bool {
		switch string(name) {
		case "resultType":
			r.ResultType, _ = jsonraw.String(val)
		case "isError":
			r.IsError = string(val) == "true"
		case "inputRequests":
			r.HasInputRequests, inputs = true, val
		case "requestState":
			r.HasRequestState = true
			r.RequestState, _ = jsonraw.String(val)
		case "capabilities":
			r.Capabilities = val
		case "serverInfo":
			r.ServerInfo = val
		case "protocolVersion":
			r.ProtocolVersion, _ = jsonraw.String(val)
		case "supportedVersions":
			jsonraw.EachElement(val, func(v []byte) {
				if s, ok := jsonraw.String(v); ok {
					r.SupportedVersions = append(r.SupportedVersions, s)
				}
			})
		case "_meta":
			meta = val
		}
		return true
	})
	if inputs != nil {
		r.InputRequests = parseInputRequests(inputs)
	}
	if meta != nil {
		eachMember(meta, func(name, val []byte) bool {
			if string(name) == MetaServerInfo {
				r.MetaServerInfo = val
				return false
			}
			return true
		})
	}
	return r
}

// parseInputRequests lists the keys and methods of an inputRequests map.
func parseInputRequests(v []byte) []InputRequest {
	var out []InputRequest
	eachMember(v, func(name, val []byte) bool {
		ir := InputRequest{Key: string(name)}
		eachMember(val, func(n, m []byte) bool {
			if string(n) == "method" {
				ir.Method, _ = jsonraw.String(m)
				return false
			}
			return true
		})
		out = append(out, ir)
		return true
	})
	slices.SortFunc(out, func(a, b InputRequest) int { return strings.Compare(a.Key, b.Key) })
	return out
}
