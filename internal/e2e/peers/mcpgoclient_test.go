//lint:file-ignore SA1019 the legacy era's features (sampling, logging, ping, the GET stream) are deprecated in 2026-07-28, and the tests drive them on purpose

package peers_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// mcpgoClient is an mcp-go client session.
type mcpgoClient struct {
	c       *client.Client
	version string
	notes   chan string // the methods of the notifications it received
	got     *receipts   // every notification it received, in order
}

// receipts records the methods of the notifications a client received.
type receipts struct {
	mu      sync.Mutex
	methods []string
}

func (r *receipts) add(method string) {
	r.mu.Lock()
	r.methods = append(r.methods, method)
	r.mu.Unlock()
}

func (r *receipts) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.methods...)
}

// mcpgoHandlers answer the server's questions: every form is accepted,
// every sampling request gets a one-line completion.
type mcpgoHandlers struct{}

func (mcpgoHandlers) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action:  mcp.ElicitationResponseActionAccept,
		Content: sdkpeer.FormAnswer(req.Params.RequestedSchema),
	}}, nil
}

func (mcpgoHandlers) CreateMessage(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("proxies pass it on")},
		Model:           sampledModel,
		StopReason:      "endTurn",
	}, nil
}

// connectMcpgo starts an mcp-go client over tr and connects at version
// ("" = let the client find the server's version).
func connectMcpgo(ctx context.Context, tr transport.Interface, version string) (*mcpgoClient, error) {
	var opts []client.ClientOption
	opts = append(opts, client.WithElicitationHandler(mcpgoHandlers{}), client.WithSamplingHandler(mcpgoHandlers{}))
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(tr, opts...)
	notes := make(chan string, 64)
	got := new(receipts)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		got.add(n.Method)
		select {
		case notes <- n.Method:
		default: // the test reads only the first few
		}
	})
	if err := c.Start(ctx); err != nil {
		return nil, fmt.Errorf("starting the mcp-go client: %w", err)
	}
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: "e2e-mcpgo-client", Version: "0.1.0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initializing the mcp-go client: %w", err)
	}
	return &mcpgoClient{c: c, version: res.ProtocolVersion, notes: notes, got: got}, nil
}

// watchTools makes notifications/tools/list_changed reach the client: at
// 2026-07-28 it opens a subscriptions/listen stream and waits for the
// server's acknowledgement; a legacy session gets them unasked.
func (m *mcpgoClient) watchTools(ctx context.Context) (<-chan string, func(), error) {
	if !mcp.IsModernProtocol(m.version) {
		return m.notes, func() {}, nil
	}
	stop, err := m.c.ListenAsync(ctx, mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := awaitNote(ctx, m.notes, mcp.MethodNotificationSubscriptionsAcknowledged); err != nil {
		stop()
		return nil, nil, err
	}
	return m.notes, stop, nil
}

func (m *mcpgoClient) protocolVersion() string { return m.version }

// received lists the methods of the notifications the client received.
func (m *mcpgoClient) received() []string { return m.got.list() }

func (m *mcpgoClient) callTool(ctx context.Context, name string, args map[string]any, progressToken string) (string, bool, error) {
	var req mcp.CallToolRequest
	req.Params.Name = name
	if progressToken != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: progressToken}
	}
	if args != nil {
		req.Params.Arguments = args
	}
	res, err := m.c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError, nil
}

func (m *mcpgoClient) listTools(ctx context.Context) ([]string, error) {
	res, err := m.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names, nil
}

func (m *mcpgoClient) readResource(ctx context.Context, uri string) (string, error) {
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := m.c.ReadResource(ctx, req)
	if err != nil {
		return "", err
	}
	var text string
	for _, c := range res.Contents {
		if tc, ok := c.(mcp.TextResourceContents); ok {
			text += tc.Text
		}
	}
	return text, nil
}

func (m *mcpgoClient) getPrompt(ctx context.Context, name string, args map[string]string) (string, error) {
	var req mcp.GetPromptRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := m.c.GetPrompt(ctx, req)
	if err != nil {
		return "", err
	}
	var text string
	for _, msg := range res.Messages {
		if tc, ok := msg.Content.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, nil
}

func (m *mcpgoClient) close() error { return m.c.Close() }

// setLogLevel sends logging/setLevel in a legacy session; at 2026-07-28
// mcp-go puts the level in every request's _meta instead.
func (m *mcpgoClient) setLogLevel(ctx context.Context, level string) error {
	var req mcp.SetLevelRequest
	req.Params.Level = mcp.LoggingLevel(level)
	return m.c.SetLevel(ctx, req)
}

func (m *mcpgoClient) ping(ctx context.Context) error { return m.c.Ping(ctx) }
