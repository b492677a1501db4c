package mock_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// handlerDelay is the client's elicitation "think time".
const handlerDelay = 20 * time.Millisecond

const (
	clientName    = "e2e-mock-client"
	clientVersion = "1.0.0"
)

// newAnswerer is the test client's user: it thinks for handlerDelay,
// then answers with actions, in order.
func newAnswerer(actions ...string) *sdkpeer.Answerer {
	return sdkpeer.NewAnswerer(handlerDelay, actions...)
}

// conversation is one scripted go-sdk client session against sdkpeer.
type conversation struct {
	version string
	legacy  bool
	urlMode bool // the client declares URL-mode elicitation too
	answers []string
	tools   []string
}

func modernConversation() conversation {
	return conversation{
		version: "2026-07-28", urlMode: true,
		answers: []string{"accept", "decline", "cancel", "accept", "accept", "accept"},
		tools:   []string{"confirm", "confirm", "confirm", "chained", "visit"},
	}
}

func legacyConversation() conversation {
	return conversation{version: "2025-11-25", legacy: true, answers: []string{"accept"}, tools: []string{"book"}}
}

// outcome is what the client got from one tool call.
type outcome struct {
	Tool    string
	Text    string
	IsError bool
}

// played is what the client saw of a session.
type played struct {
	Tools    []string // the tools the server listed
	Outcomes []outcome
	Asked    []string // the questions its elicitation handler was asked
}

// play connects a client over transport, lists the tools, calls each
// tool of the conversation and closes the session.
func (c conversation) play(ctx context.Context, t *testing.T, transport mcp.Transport) played {
	t.Helper()
	ans := newAnswerer(c.answers...)
	opts := &mcp.ClientOptions{ElicitationHandler: ans.Handle}
	if c.urlMode {
		opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{},
		}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, opts)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: c.version})
	if err != nil {
		t.Fatalf("connecting at %s: %v", c.version, err)
	}
	var p played
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	for _, tool := range lt.Tools {
		p.Tools = append(p.Tools, tool.Name)
	}
	for _, name := range c.tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name})
		if err != nil {
			t.Fatalf("calling %s: %v", name, err)
		}
		o := outcome{Tool: name, IsError: res.IsError}
		for _, ct := range res.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				o.Text += tc.Text
			}
		}
		p.Outcomes = append(p.Outcomes, o)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the client session: %v", err)
	}
	p.Asked = ans.Asked()
	return p
}
