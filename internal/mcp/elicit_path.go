package mcp

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The member paths of an elicitation's question and answer, for a caller
// that holds a ledger row's reference (a key, an entry) and needs the raw
// value in its frame. Each returns nil when a member on the path is
// absent or not an object; a repeated member counts as its first.

// InputRequestParams returns result.inputRequests[key].params of an
// InputRequiredResult: the question filed under key.
func InputRequestParams(result jsontext.Value, key string) jsontext.Value {
	return jsonraw.Member(jsonraw.Member(jsonraw.Member(result, "inputRequests"), key), "params")
}

// InputResponse returns params.inputResponses[key] of a retry request:
// the answer filed under key (an ElicitResult for an elicitation).
func InputResponse(params jsontext.Value, key string) jsontext.Value {
	return jsonraw.Member(jsonraw.Member(params, "inputResponses"), key)
}

// RequiredElicitation returns entry i (0-based) of a -32042 error's
// data.elicitations: the params of one url-mode question.
func RequiredElicitation(data jsontext.Value, i int) jsontext.Value {
	var out []byte
	n := 0
	jsonraw.EachElement(jsonraw.Member(data, "elicitations"), func(v []byte) {
		if n == i {
			out = v
		}
		n++
	})
	return out
}

// RequestedSchema returns params.requestedSchema of an elicitation/create.
func RequestedSchema(params jsontext.Value) jsontext.Value {
	return jsonraw.Member(params, "requestedSchema")
}

// ElicitContent returns the content member of an ElicitResult: the values
// the user submitted, which no ledger row holds (a caller keeps their
// names, or the values only when the operator opted in).
func ElicitContent(result jsontext.Value) jsontext.Value {
	return jsonraw.Member(result, "content")
}
