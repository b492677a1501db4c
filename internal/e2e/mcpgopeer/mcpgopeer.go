// Package mcpgopeer is the second real MCP peer of the end-to-end tests,
// built on github.com/mark3labs/mcp-go (v1.2.1), next to the official
// go-sdk's ../sdkpeer. Its server offers tools (one that succeeds, one
// that fails, one that reports progress and logs, one that asks the client for a form elicitation and a
// sampling completion, one that adds a tool and changes another, announcing
// notifications/tools/list_changed), a resource and a prompt.
//
// mcp-go speaks both eras with one handler: against a 2026-07-28 client
// the asking tool returns an input_required result (MRTR) and the client
// retries; against a 2025-11-25 client mcp-go sends the server-initiated
// elicitation/create and sampling/createMessage itself. The stdio tests run
// the server as a process (../peers/cmd/mcpgoserver); the HTTP tests serve
// it in-process behind mcp-go's Streamable HTTP handler (NewHTTPHandler).
package mcpgopeer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The server's identity, as it reports it in serverInfo.
const (
	Name    = "e2e-mcpgo-server"
	Version = "0.1.0"
)

// ResourceURI is the server's one resource; PromptName its one prompt.
const (
	ResourceURI = "mcpgo://e2e/readme"
	PromptName  = "greet"
)

// NewServer returns an mcp-go server with the test's tools, resource and
// prompt.
func NewServer() *server.MCPServer {
	srv := server.NewMCPServer(Name, Version,
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithPaginationLimit(2), // tools/list comes in pages
	)
	srv.EnableSampling()
	srv.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("echoes its text argument"),
		mcp.WithString("text", mcp.Required(), mcp.Description("what to echo")),
	), echo)
	srv.AddTool(mcp.NewTool("fail", mcp.WithDescription("always fails with a tool error")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("fail: this tool always fails"), nil
		})
	srv.AddTool(mcp.NewTool("work", mcp.WithDescription("reports progress, then succeeds")), work)
	srv.AddTool(mcp.NewTool("ask",
		mcp.WithDescription("asks the user for a confirmation and the model for a haiku"),
	), ask)
	srv.AddTool(mcp.NewTool("grow", mcp.WithDescription("adds the extra tool and changes echo's description")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv.AddTool(mcp.NewTool("extra", mcp.WithDescription("added by grow")), echo)
			srv.AddTool(mcp.NewTool("echo",
				mcp.WithDescription("echoes its text argument, changed by grow"),
				mcp.WithString("text", mcp.Required(), mcp.Description("what to echo")),
			), echo)
			return mcp.NewToolResultText("grown"), nil
		})
	srv.AddResource(mcp.NewResource(ResourceURI, "readme", mcp.WithMIMEType("text/plain")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{
				URI: req.Params.URI, MIMEType: "text/plain", Text: "the e2e readme",
			}}, nil
		})
	srv.AddPrompt(mcp.NewPrompt(PromptName,
		mcp.WithPromptDescription("greets someone"),
		mcp.WithArgument("name", mcp.RequiredArgument(), mcp.ArgumentDescription("who to greet")),
	), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{
			Description: "a greeting",
			Messages: []mcp.PromptMessage{{
				Role:    mcp.RoleUser,
				Content: mcp.NewTextContent("Say hello to " + req.Params.Arguments["name"]),
			}},
		}, nil
	})
	return srv
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(req.GetString("text", "")), nil
}

// ask needs two answers: a form elicitation and a sampling completion,
// asked in one round. On the retry it reports both.
func ask(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p := req.Params
	el := server.ElicitationResponse(p.InputResponses, "confirm")
	sm := server.SamplingResponse(p.InputResponses, "haiku")
	if el == nil || sm == nil {
		return server.NewInputRequestBuilder("ask-1").
			Elicit("confirm", mcp.ElicitationParams{
				Mode:    mcp.ElicitationModeForm,
				Message: "Write a haiku?",
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"ok": map[string]any{"type": "boolean", "description": "go ahead"}},
					"required":   []string{"ok"},
				},
			}).
			Sample("haiku", mcp.CreateMessageParams{
				Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("a haiku about proxies")}},
				MaxTokens: 64,
			}).
			ToolResult(), nil
	}
	if p.RequestState != "ask-1" {
		return mcp.NewToolResultError(fmt.Sprintf("bad requestState %q", p.RequestState)), nil
	}
	if el.Action != mcp.ElicitationResponseActionAccept {
		return mcp.NewToolResultError("ask: " + string(el.Action)), nil
	}
	return mcp.NewToolResultText("ask: accepted, model " + sm.Model), nil
}

// work sends two notifications/progress for the request's progressToken
// (when it has one) and an info log message (when the client's level lets
// it through) before its result. Over HTTP (NewHTTPHandler) it returns
// only once the last progress notification has been written, so that
// mcp-go cannot drop one of them (see NewHTTPHandler).
func work(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	var written <-chan struct{}
	m := req.Params.Meta
	hasToken := m != nil && m.ProgressToken != nil
	if wt, ok := ctx.Value(watchKey{}).(*watch); ok && hasToken {
		token, err := json.Marshal(m.ProgressToken)
		if err != nil {
			return mcp.NewToolResultError("progress token: " + err.Error()), nil
		}
		written = wt.expect([]byte(`"notifications/progress"`), []byte(`"message":"step 2"`), append([]byte(`"progressToken":`), token...))
	}
	err := srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(mcp.LoggingLevelInfo, "work", "working"))
	if err != nil {
		return mcp.NewToolResultError("log: " + err.Error()), nil
	}
	if hasToken {
		for i := 1; i <= 2; i++ {
			err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": m.ProgressToken, "progress": i, "total": 2, "message": fmt.Sprintf("step %d", i),
			})
			if err != nil {
				return mcp.NewToolResultError("progress: " + err.Error()), nil
			}
		}
	}
	if written != nil {
		select {
		case <-written:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the progress notifications to be written: %w", ctx.Err())
		}
	}
	return mcp.NewToolResultText("worked"), nil
}
