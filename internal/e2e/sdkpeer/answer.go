package sdkpeer

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answerer is the elicitation handler of the end-to-end tests' go-sdk
// clients (the user): it answers with queued actions, in order, after
// its think time, fills an accepted form with a value of each property's
// type, and keeps the message of every question it was asked.
type Answerer struct {
	delay   time.Duration
	mu      sync.Mutex
	actions []string
	asked   []string
}

// NewAnswerer returns an Answerer that thinks for delay before each
// answer, with actions queued.
func NewAnswerer(delay time.Duration, actions ...string) *Answerer {
	return &Answerer{delay: delay, actions: append([]string(nil), actions...)}
}

// Queue adds actions to answer with.
func (a *Answerer) Queue(actions ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.actions = append(a.actions, actions...)
}

// Asked returns the messages of the questions asked so far, in order.
func (a *Answerer) Asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

// Handle is the client's mcp.ClientOptions.ElicitationHandler. A question
// with no action left is an error.
func (a *Answerer) Handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	select {
	case <-time.After(a.delay):
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
		res.Content = FormAnswer(req.Params.RequestedSchema)
	}
	return res, nil
}

// FormAnswer fills every property of a flat requested schema with a value
// of its type.
func FormAnswer(schema any) map[string]any {
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	out := make(map[string]any, len(props))
	for name, p := range props {
		switch typ, _ := p.(map[string]any)["type"].(string); typ {
		case "boolean":
			out[name] = true
		case "integer", "number":
			out[name] = 4
		default:
			out[name] = "x"
		}
	}
	return out
}
