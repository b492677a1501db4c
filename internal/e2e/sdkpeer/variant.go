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
	// VariantParamHeader adds a tool instead of changing one: deploy,
	// whose env argument is annotated x-mcp-header "Env", so a 2026-07-28
	// client over HTTP mirrors it into Mcp-Param-Env (and the go-sdk's
	// HTTP handler rejects a call without it, 400 -32020).
	VariantParamHeader = "param-header"
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
	case VariantParamHeader:
		addDeploy(srv)
		return nil
	default:
		return fmt.Errorf("unknown variant %q (want %s, %s, %s, %s or %s)", variant, VariantChanged, VariantError, VariantExtraField, VariantSlow, VariantParamHeader)
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

// deployArgs are the deploy tool's arguments.
type deployArgs struct {
	Service string `json:"service"`
	Env     string `json:"env"`
}

// addDeploy adds VariantParamHeader's deploy tool: its result names the
// service and the env it got.
func addDeploy(srv *mcp.Server) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"service": map[string]any{"type": "string"},
		"env":     map[string]any{"type": "string", "x-mcp-header": "Env"},
	}}
	mcp.AddTool(srv, &mcp.Tool{Name: "deploy", Description: "deploys a service to an env", InputSchema: schema},
		func(_ context.Context, _ *mcp.CallToolRequest, a deployArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deployed " + a.Service + " to " + a.Env}}}, nil, nil
		})
}
