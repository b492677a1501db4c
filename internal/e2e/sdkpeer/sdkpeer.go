// Package sdkpeer is the MCP server the end-to-end tests run as a real
// peer: the official go-sdk (v1.8.0) with tools that elicit, in both eras.
// The stdio tests run it as a process (../sdk/cmd/sdkserver); the HTTP tests
// serve it in-process behind the go-sdk's Streamable HTTP handler, so both
// transports carry the same conversation. A Server holds no state beyond
// the go-sdk server's; it is safe for concurrent sessions.
package sdkpeer

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The server's identity, as it reports it in serverInfo.
const (
	Name    = "e2e-sdk-server"
	Version = "0.3.0"
)

// NewServer returns a go-sdk server with the test tools: confirm, chained
// and visit (2026-07-28 MRTR), or book (2025-11-25, server-initiated
// elicitation) when legacy is set.
func NewServer(legacy bool) *mcp.Server {
	var opts mcp.ServerOptions
	if legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &opts)
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

// stateSeq numbers the requestState values the server hands out, so every
// interim result carries a distinct state.
type stateSeq struct{ n atomic.Int64 }

func (s *stateSeq) next(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, s.n.Add(1))
}

// formQuestion is a form-mode elicitation with one required boolean field.
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

// VisitURL is where the visit tool sends the user (URL-mode elicitation).
const VisitURL = "https://auth.example.com/connect?session=e2e"

// visit asks the user to visit a URL (an MRTR URL-mode elicitation), then
// reports the answer.
func (s *stateSeq) visit(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	p := req.Params
	if len(p.InputResponses) == 0 {
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"login": &mcp.ElicitParams{
				Mode: "url", Message: "Sign in to continue", URL: VisitURL, ElicitationID: "el-visit",
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

// book asks the client mid-call with a legacy server-initiated
// elicitation/create and reports the answer.
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

// answerResult turns an elicitation answer into the tool's final result:
// accept completes, decline and cancel are tool errors saying so.
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
