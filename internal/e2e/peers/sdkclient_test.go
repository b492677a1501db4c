//lint:file-ignore SA1019 the legacy era's features (sampling, logging, ping, the GET stream) are deprecated in 2026-07-28, and the tests drive them on purpose

package peers_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// sdkClient is a go-sdk client session.
type sdkClient struct {
	cs    *mcp.ClientSession
	notes chan string // the list_changed notifications it received
}

// connectSDK connects a go-sdk client over tr at version. Its handlers
// accept every question (form and url mode) and answer every sampling
// request with one line.
func connectSDK(ctx context.Context, tr mcp.Transport, version string) (*sdkClient, error) {
	notes := make(chan string, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-sdk-client", Version: "1.2.3"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			res := &mcp.ElicitResult{Action: "accept"}
			if req.Params.Mode != "url" {
				res.Content = sdkpeer.FormAnswer(req.Params.RequestedSchema)
			}
			return res, nil
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case notes <- "notifications/tools/list_changed":
			default:
			}
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{
				Content: &mcp.TextContent{Text: "proxies pass it on"}, Model: sampledModel,
				Role: "assistant", StopReason: "endTurn",
			}, nil
		},
	})
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, fmt.Errorf("connecting the go-sdk client at %s: %w", version, err)
	}
	return &sdkClient{cs: cs, notes: notes}, nil
}

// watchTools returns the list_changed notifications of a legacy session.
// At 2026-07-28 it returns nil: the go-sdk client opens no
// subscriptions/listen stream here, so the server announces nothing.
func (s *sdkClient) watchTools(context.Context) (<-chan string, func(), error) {
	if s.protocolVersion() != legacy {
		return nil, func() {}, nil
	}
	return s.notes, func() {}, nil
}

func (s *sdkClient) protocolVersion() string { return s.cs.InitializeResult().ProtocolVersion }

func (s *sdkClient) callTool(ctx context.Context, name string, args map[string]any, progressToken string) (string, bool, error) {
	p := &mcp.CallToolParams{Name: name}
	if progressToken != "" {
		p.SetProgressToken(progressToken)
	}
	if args != nil {
		p.Arguments = args
	}
	res, err := s.cs.CallTool(ctx, p)
	if err != nil {
		return "", false, err
	}
	if res.NeedsInput() {
		return "", false, fmt.Errorf("%s still needs input after the SDK's retries", name)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError, nil
}

func (s *sdkClient) listTools(ctx context.Context) ([]string, error) {
	var names []string
	for tl, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names = append(names, tl.Name)
	}
	return names, nil
}

func (s *sdkClient) readResource(ctx context.Context, uri string) (string, error) {
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	var text string
	for _, c := range res.Contents {
		text += c.Text
	}
	return text, nil
}

func (s *sdkClient) getPrompt(ctx context.Context, name string, args map[string]string) (string, error) {
	res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	var text string
	for _, m := range res.Messages {
		if tc, ok := m.Content.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, nil
}

func (s *sdkClient) close() error { return s.cs.Close() }

// setLogLevel sends logging/setLevel in a legacy session. At 2026-07-28 it
// does nothing: the go-sdk client would still send logging/setLevel, a
// method that era removed.
func (s *sdkClient) setLogLevel(ctx context.Context, level string) error {
	if s.protocolVersion() != legacy {
		return nil
	}
	return s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)})
}

func (s *sdkClient) ping(ctx context.Context) error { return s.cs.Ping(ctx, nil) }
