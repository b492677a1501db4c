package peers_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/e2e/mcpgopeer"
)

// The SDKs, transports and protocol versions of the matrix.
const (
	goSDK = "go-sdk"
	mcpGo = "mcp-go"

	stdio = "stdio"
	http  = "http"

	modern = "2026-07-28"
	legacy = "2025-11-25"
)

// session is one cell of the matrix: which SDK plays the client and which
// the server, over which transport, at which protocol version. With probe
// set the client asks for no version and finds the server's by itself
// (mcp-go's server/discover probe, then initialize when it fails).
type session struct {
	client, server, transport, version string
	probe                              bool
}

func (s session) name() string {
	n := fmt.Sprintf("%s-to-%s/%s/%s", s.client, s.server, s.transport, s.version)
	if s.probe {
		n += "-probed"
	}
	return n
}

// peerClient is what the scripts need of a client SDK.
type peerClient interface {
	// protocolVersion is the version the connection settled on.
	protocolVersion() string
	// callTool calls a tool, with progressToken in its _meta unless "".
	callTool(ctx context.Context, name string, args map[string]any, progressToken string) (text string, isError bool, err error)
	listTools(ctx context.Context) ([]string, error)
	readResource(ctx context.Context, uri string) (string, error)
	getPrompt(ctx context.Context, name string, args map[string]string) (string, error)
	// watchTools arranges for notifications/tools/list_changed to reach
	// the client and returns the channel they arrive on (nil if the client
	// cannot receive them) and a function that stops the watch.
	watchTools(ctx context.Context) (notes <-chan string, stop func(), err error)
	// setLogLevel asks for log messages at level and above (nil error
	// and nothing sent where the client SDK has no way to).
	setLogLevel(ctx context.Context, level string) error
	// ping pings the server (legacy sessions only: 2026-07-28 has no ping).
	ping(ctx context.Context) error
	close() error
}

// toolStep is a tool call and the result it must give.
type toolStep struct {
	name     string
	args     map[string]any
	text     string
	isError  bool
	progress string // the progressToken the call carries, if any
}

// toolSteps is what the client calls on server at version.
func (s session) toolSteps() []toolStep {
	switch {
	case s.server == mcpGo:
		return []toolStep{
			{"echo", map[string]any{"text": "hello"}, "hello", false, ""},
			{"fail", nil, "fail: this tool always fails", true, ""},
			{"work", nil, "worked", false, "work-1"},
			{"ask", nil, "ask: accepted, model e2e-model", false, ""},
			{"grow", nil, "grown", false, ""},
		}
	case s.version == modern && s.client == goSDK:
		// Only the go-sdk client declares url-mode elicitation.
		return []toolStep{
			{"confirm", nil, "confirm: accepted", false, ""},
			{"chained", nil, "step2: accepted", false, ""},
			{"visit", nil, "login: accepted", false, ""},
		}
	case s.version == modern:
		return []toolStep{
			{"confirm", nil, "confirm: accepted", false, ""},
			{"chained", nil, "step2: accepted", false, ""},
		}
	default:
		return []toolStep{{"book", nil, "guests: accepted", false, ""}}
	}
}

// play runs s's script on c: the tool calls, and with the mcp-go server
// also the resource, the prompt and the tool list the grow tool changed.
func (s session) play(ctx context.Context, t *testing.T, c peerClient) {
	t.Helper()
	if got := c.protocolVersion(); got != s.version {
		t.Errorf("negotiated protocol version %q, want %s", got, s.version)
	}
	if s.version == legacy {
		if err := c.ping(ctx); err != nil {
			t.Errorf("ping: %v", err)
		}
	}
	var notes <-chan string
	if s.server == mcpGo {
		if err := c.setLogLevel(ctx, "info"); err != nil {
			t.Fatalf("setting the log level: %v", err)
		}
		before, err := c.listTools(ctx)
		if err != nil || !slices.Contains(before, "echo") {
			t.Fatalf("listing tools before grow = %v, %v", before, err)
		}
		var stop func()
		if notes, stop, err = c.watchTools(ctx); err != nil {
			t.Fatalf("watching the tool list: %v", err)
		}
		defer stop()
	}
	for _, st := range s.toolSteps() {
		text, isErr, err := c.callTool(ctx, st.name, st.args, st.progress)
		if err != nil {
			t.Fatalf("calling %s: %v", st.name, err)
		}
		if text != st.text || isErr != st.isError {
			t.Errorf("%s = %q (isError %v), want %q (isError %v)", st.name, text, isErr, st.text, st.isError)
		}
	}
	if s.server != mcpGo {
		return
	}
	if notes != nil {
		if err := awaitNote(ctx, notes, "notifications/tools/list_changed"); err != nil {
			t.Errorf("after grow: %v", err)
		}
	}
	tools, err := c.listTools(ctx)
	if err != nil {
		t.Fatalf("listing tools: %v", err)
	}
	if !slices.Contains(tools, "extra") {
		t.Errorf("tools after grow = %v, want extra among them", tools)
	}
	text, err := c.readResource(ctx, mcpgopeer.ResourceURI)
	if err != nil || text != "the e2e readme" {
		t.Errorf("reading %s = %q, %v", mcpgopeer.ResourceURI, text, err)
	}
	text, err = c.getPrompt(ctx, mcpgopeer.PromptName, map[string]string{"name": "Ada"})
	if err != nil || !strings.Contains(text, "Ada") {
		t.Errorf("getting prompt %s = %q, %v", mcpgopeer.PromptName, text, err)
	}
}

// sampledModel is the model name the clients' sampling handlers report.
const sampledModel = "e2e-model"

// awaitNote waits until a notification of method arrives on notes.
func awaitNote(ctx context.Context, notes <-chan string, method string) error {
	for {
		select {
		case m := <-notes:
			if m == method {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("no %s: %w", method, ctx.Err())
		}
	}
}
