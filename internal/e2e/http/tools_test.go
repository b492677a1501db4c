package http_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server's identity and tools are those of ../sdk/cmd/sdkserver, so an
// HTTP session and a stdio session of the same conversation must export
// the same calls, operations and ledger rows.
const (
	serverName    = "e2e-sdk-server"
	serverVersion = "0.3.0"
)

// newMCPServer returns a go-sdk server with sdkserver's tools: confirm and
// chained (2026-07-28 MRTR), or book (2025-11-25, server-initiated
// elicitation) when legacy is set.
func newMCPServer(legacy bool) *mcp.Server {
	var opts mcp.ServerOptions
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: serverName, Version: serverVersion}, &opts)
	states := new(stateSeq)
	if legacy {
		mcp.AddTool(srv, &mcp.Tool{Name: "book", Description: "books a table, asking how many guests"}, book)
	} else {
		mcp.AddTool(srv, &mcp.Tool{Name: "confirm", Description: "asks for one confirmation"}, states.confirm)
		mcp.AddTool(srv, &mcp.Tool{Name: "chained", Description: "asks twice, in two rounds"}, states.chained)
		mcp.AddTool(srv, &mcp.Tool{Name: "visit", Description: "asks the user to visit a URL"}, states.visit)
	}
	return srv
}

type stateSeq struct{ n atomic.Int64 }

func (s *stateSeq) next(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, s.n.Add(1))
}

func formQuestion(msg, field string) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: msg,
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{field: map[string]any{"type": "boolean"}},
			"required":   []string{field},
		},
	}
}

func (s *stateSeq) confirm(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	if len(p.InputResponses) == 0 {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"confirm": formQuestion("Proceed?", "ok")},
			RequestState:  s.next("confirm"),
		}, nil, nil
	}
	if !strings.HasPrefix(p.RequestState, "confirm-") {
		return errorResult("bad requestState %q", p.RequestState), nil, nil
	}
	return answerResult("confirm", p.InputResponses["confirm"]), nil, nil
}

// visitURL is where the visit tool sends the user (URL-mode elicitation).
const visitURL = "https://auth.example.com/connect?session=e2e"

// visit asks the user to visit a URL (an MRTR URL-mode elicitation), then
// reports the answer.
func (s *stateSeq) visit(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	if len(p.InputResponses) == 0 {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{
				Mode: "url", Message: "Sign in to continue", URL: visitURL, ElicitationID: "el-visit",
			}},
			RequestState: s.next("visit"),
		}, nil, nil
	}
	if !strings.HasPrefix(p.RequestState, "visit-") {
		return errorResult("bad requestState %q", p.RequestState), nil, nil
	}
	return answerResult("login", p.InputResponses["login"]), nil, nil
}

func (s *stateSeq) chained(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	switch {
	case len(p.InputResponses) == 0:
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"step1": formQuestion("Step 1: continue?", "go")},
			RequestState:  s.next("chain1"),
		}, nil, nil
	case p.InputResponses["step1"] != nil && strings.HasPrefix(p.RequestState, "chain1-"):
		if r := answerResult("step1", p.InputResponses["step1"]); r.IsError {
			return r, nil, nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"step2": formQuestion("Step 2: really continue?", "go")},
			RequestState:  s.next("chain2"),
		}, nil, nil
	case p.InputResponses["step2"] != nil && strings.HasPrefix(p.RequestState, "chain2-"):
		return answerResult("step2", p.InputResponses["step2"]), nil, nil
	}
	return errorResult("unexpected retry: state %q", p.RequestState), nil, nil
}

func book(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: "How many guests?",
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"guests": map[string]any{"type": "integer", "minimum": 1}},
			"required":   []string{"guests"},
		},
	})
	if err != nil {
		return errorResult("elicitation failed: %v", err), nil, nil
	}
	return answerResult("guests", res), nil, nil
}

func answerResult(key string, resp mcp.InputResponse) *mcp.CallToolResult {
	er, ok := resp.(*mcp.ElicitResult)
	if !ok || er == nil {
		return errorResult("%s: no elicitation answer (got %T)", key, resp)
	}
	switch er.Action {
	case "accept":
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: key + ": accepted"}}}
	case "decline":
		return errorResult("%s: declined", key)
	case "cancel":
		return errorResult("%s: cancelled", key)
	}
	return errorResult("%s: unknown action %q", key, er.Action)
}

func errorResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}},
		IsError: true,
	}
}
