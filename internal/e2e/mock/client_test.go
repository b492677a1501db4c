package mock_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// handlerDelay is the client's elicitation "think time".
const handlerDelay = 20 * time.Millisecond

const (
	clientName    = "e2e-mock-client"
	clientVersion = "1.0.0"
)

// answerer answers elicitations with queued actions, in order, and notes
// each question it was asked.
type answerer struct {
	mu      sync.Mutex
	actions []string
	asked   []string
}

func (a *answerer) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	select {
	case <-time.After(handlerDelay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req.Params.Message)
	if len(a.actions) == 0 {
		return nil, fmt.Errorf("unexpected elicitation %q", req.Params.Message)
	}
	action := a.actions[0]
	a.actions = a.actions[1:]
	res := &mcp.ElicitResult{Action: action}
	if action == "accept" && req.Params.Mode != "url" {
		m, _ := req.Params.RequestedSchema.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		content := map[string]any{}
		for name, p := range props {
			if typ, _ := p.(map[string]any)["type"].(string); typ == "boolean" {
				content[name] = true
			} else {
				content[name] = 4
			}
		}
		res.Content = content
	}
	return res, nil
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
	ans := &answerer{actions: append([]string(nil), c.answers...)}
	opts := &mcp.ClientOptions{ElicitationHandler: ans.handle}
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
	ans.mu.Lock()
	p.Asked = ans.asked
	ans.mu.Unlock()
	return p
}
