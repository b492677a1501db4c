package sdkpeer

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The variants of NewServer that the replay tests run the recorded client
// side against (ApplyVariant). Each changes one tool: confirm (2026-07-28)
// or book (legacy).
const (
	// VariantChanged: the tool's accepted result says "approved" instead
	// of "accepted" (result.content[0].text changes).
	VariantChanged = "changed"
	// VariantError: the tool now fails with a JSON-RPC error (-32603)
	// without asking anything.
	VariantError = "error"
	// VariantExtraField: the tool's form asks for an extra optional field,
	// "note" (a string); the answer is handled as before.
	VariantExtraField = "extra-field"
	// VariantSlow: the tool takes SlowBy longer before it first answers.
	VariantSlow = "slow"
)

// SlowBy is how much longer VariantSlow's tool takes.
const SlowBy = 400 * time.Millisecond

// ApplyVariant replaces one tool of srv (made by NewServer with the same
// legacy) with the variant named; "" changes nothing.
func ApplyVariant(srv *mcp.Server, legacy bool, variant string) error {
	switch variant {
	case "":
		return nil
	case VariantChanged, VariantError, VariantExtraField, VariantSlow:
	default:
		return fmt.Errorf("unknown variant %q (want %s, %s, %s or %s)", variant, VariantChanged, VariantError, VariantExtraField, VariantSlow)
	}
	v := &varied{variant: variant, states: new(stateSeq)}
	if legacy {
		mcp.AddTool(srv, &mcp.Tool{Name: "book", Description: "books a table, asking how many guests"}, v.book)
	} else {
		mcp.AddTool(srv, &mcp.Tool{Name: "confirm", Description: "asks for one confirmation"}, v.confirm)
	}
	return nil
}

// varied serves the changed tool of one variant.
type varied struct {
	variant string
	states  *stateSeq
}

// question returns the tool's form with one required field (and the extra
// field in VariantExtraField).
func (v *varied) question(msg, field, typ string) *mcp.ElicitParams {
	props := map[string]any{field: map[string]any{"type": typ}}
	if v.variant == VariantExtraField {
		props["note"] = map[string]any{"type": "string"}
	}
	return &mcp.ElicitParams{
		Mode: "form", Message: msg,
		RequestedSchema: map[string]any{"type": "object", "properties": props, "required": []string{field}},
	}
}

// result is answerResult with VariantChanged's wording.
func (v *varied) result(key string, resp mcp.InputResponse) *mcp.CallToolResult {
	r := answerResult(key, resp)
	if v.variant == VariantChanged && !r.IsError {
		r.Content = []mcp.Content{&mcp.TextContent{Text: key + ": approved"}}
	}
	return r
}

func (v *varied) confirm(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if v.variant == VariantError {
		return nil, nil, &jsonrpc.Error{Code: -32603, Message: "confirm: the service is down"}
	}
	p := req.Params
	if len(p.InputResponses) == 0 {
		v.delay()
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"confirm": v.question("Proceed?", "ok", "boolean")},
			RequestState:  v.states.next("confirm"),
		}, nil, nil
	}
	return v.result("confirm", p.InputResponses["confirm"]), nil, nil
}

func (v *varied) book(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	if v.variant == VariantError {
		return nil, nil, &jsonrpc.Error{Code: -32603, Message: "book: the service is down"}
	}
	v.delay()
	res, err := req.Session.Elicit(ctx, v.question("How many guests?", "guests", "integer"))
	if err != nil {
		return errorResult("elicitation failed: %v", err), nil, nil
	}
	return v.result("guests", res), nil, nil
}

// delay makes VariantSlow's tool slow.
func (v *varied) delay() {
	if v.variant == VariantSlow {
		time.Sleep(SlowBy) // the variant's point: a slower tool
	}
}
