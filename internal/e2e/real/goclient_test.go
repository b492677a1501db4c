//lint:file-ignore SA1019 the legacy era's features (sampling, roots) are deprecated in 2026-07-28, and the sweep drives them on purpose
package real_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk (v1.8.0) client, asking for one version: the
// TypeScript servers are what it meets here (../peers pairs it with the
// go servers).
const (
	goLegacy = "go-sdk-2025" // asks for 2025-11-25
	goModern = "go-sdk-2026" // asks for 2026-07-28
)

// goWalk is the go-sdk client's run of the script of testdata/client.mjs:
// the same tools with the same arguments, the same answers.
type goWalk struct {
	mu     sync.Mutex
	r      report
	cancel context.CancelFunc // of the call being cancelled
}

// playGo connects a go-sdk client to the tap (stdio: it starts `mcptrail
// mcptrailArgs...`; http: url), plays the script and returns its report.
func (s session) playGo(t *testing.T, dir string, mcptrailArgs []string, url string) report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	w := &goWalk{r: report{Calls: make(map[string]string)}}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-go-sdk-client", Version: "1.0.0"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
			Sampling:    &mcp.SamplingCapabilities{},
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode == "url" {
				w.ask("url")
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			w.ask("form")
			return &mcp.ElicitResult{Action: "accept", Content: fill(req.Params.RequestedSchema)}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			w.ask("sampling")
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "proxies pass it on"}, Model: "e2e-model",
				Role: "assistant", StopReason: "endTurn"}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			w.mu.Lock()
			defer w.mu.Unlock()
			if req.Params.ProgressToken == "cancel" && w.cancel != nil {
				w.cancel()
				return
			}
			w.r.Progress++
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///tmp/sweep", Name: "sweep"})
	var tr mcp.Transport
	if s.transport == stdio {
		cmd := exec.Command(bins.mcptrail, mcptrailArgs...)
		cmd.Dir = dir
		cmd.Env = childEnv(dir)
		tr = &mcp.CommandTransport{Command: cmd, TerminateDuration: 3 * time.Second}
	} else {
		tr = &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	}
	version := legacy
	if s.client == goModern {
		version = modern
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting the go-sdk client at %s: %v", version, err)
	}
	w.play(ctx, cs)
	if err := cs.Close(); err != nil {
		if s.server == everything && s.transport == stdio {
			// server-everything ignores its stdin's EOF, so mcptrail waits
			// for it until the client's SIGTERM after TerminateDuration:
			// 143 is mcptrail's exit status then.
			t.Logf("closing the go-sdk client: %v (server-everything ignores EOF)", err)
		} else {
			t.Errorf("closing the go-sdk client: %v", err)
		}
	}
	return w.r
}

func (w *goWalk) ask(what string) {
	w.mu.Lock()
	w.r.Asked = append(w.r.Asked, what)
	w.mu.Unlock()
}

// play calls the tools of the plan the server offers, in the order of
// client.mjs.
func (w *goWalk) play(ctx context.Context, cs *mcp.ClientSession) {
	w.r.Tools = goTools(ctx, cs)
	run := func(name string, args map[string]any, token string) {
		if args == nil {
			args = map[string]any{} // a nil map would go out as "arguments": null
		}
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		if token != "" {
			p.SetProgressToken(token)
		}
		res, err := cs.CallTool(ctx, p)
		switch {
		case err != nil:
			w.r.Calls[name] = "throw: " + err.Error()
		case res.IsError:
			w.r.Calls[name] = "error: " + text(res)
		default:
			w.r.Calls[name] = "ok: " + text(res)
		}
	}
	cancel := func(name string, args map[string]any) {
		if args == nil {
			args = map[string]any{}
		}
		cctx, stop := context.WithCancel(ctx)
		w.mu.Lock()
		w.cancel = stop
		w.mu.Unlock()
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		p.SetProgressToken("cancel")
		_, err := cs.CallTool(cctx, p)
		if cctx.Err() != nil {
			w.r.Cancelled = append(w.r.Cancelled, name)
		} else {
			w.r.Cancelled = append(w.r.Cancelled, fmt.Sprintf("%s: finished (%v)", name, err))
		}
		stop()
	}
	for _, step := range []struct {
		name string
		do   func(string)
	}{
		{"trigger-long-running-operation", func(n string) {
			run(n, map[string]any{"duration": 1, "steps": 2}, "work")
			cancel(n, map[string]any{"duration": 20, "steps": 20})
		}},
		{"trigger-sampling-request", func(n string) { run(n, map[string]any{"prompt": "a haiku", "maxTokens": 32}, "") }},
		{"get-roots-list", func(n string) { run(n, nil, "") }},
		{"trigger-elicitation-request", func(n string) { run(n, nil, "") }},
		{"trigger-url-elicitation", func(n string) { run(n, map[string]any{"url": "https://example.com/sweep-login"}, "") }},
		{"gzip-file-as-resource", func(n string) {
			run(n, map[string]any{"name": "sweep.txt", "data": "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("sweep ", 20)))}, "")
		}},
		{"echo", func(n string) { run(n, map[string]any{"message": "hi"}, "") }},
		{"ask", func(n string) { run(n, nil, "") }},
		{"visit", func(n string) { run(n, nil, "") }},
		{"sample", func(n string) { run(n, nil, "") }},
		{"roots", func(n string) { run(n, nil, "") }},
		{"work", func(n string) { run(n, nil, "work") }},
		{"slow", func(n string) { cancel(n, nil) }},
		{"grow", func(n string) { run(n, nil, ""); w.r.ToolsAfter = goTools(ctx, cs) }},
	} {
		if slices.Contains(w.r.Tools, step.name) {
			step.do(step.name)
		}
	}
	slices.Sort(w.r.Asked)
}

func goTools(ctx context.Context, cs *mcp.ClientSession) []string {
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			break
		}
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// fill answers a form with values its requested schema accepts, as
// client.mjs's fill does.
func fill(schema any) map[string]any {
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	out := make(map[string]any)
	for k, v := range props {
		p, _ := v.(map[string]any)
		if x := value(p); x != nil {
			out[k] = x
		}
	}
	return out
}

func value(p map[string]any) any {
	first := func(key string) any {
		if l, ok := p[key].([]any); ok && len(l) > 0 {
			if o, ok := l[0].(map[string]any); ok {
				return o["const"]
			}
			return l[0]
		}
		return nil
	}
	if v := first("enum"); v != nil {
		return v
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if v := first(k); v != nil {
			return v
		}
	}
	if d, ok := p["default"]; ok {
		return d
	}
	switch p["type"] {
	case "boolean":
		return true
	case "integer", "number":
		if m, ok := p["minimum"].(float64); ok && m > 1 {
			return m
		}
		return 1
	case "array":
		items, _ := p["items"].(map[string]any)
		if v := value(items); v != nil {
			return []any{v}
		}
		return []any{}
	case "string":
		switch p["format"] {
		case "email":
			return "sweep@example.com"
		case "uri":
			return "https://example.com/sweep"
		case "date":
			return "2026-12-02"
		case "date-time":
			return "2026-12-02T01:00:00Z"
		}
		s := "sweep"
		if n, ok := p["minLength"].(float64); ok {
			for len(s) < int(n) {
				s += "x"
			}
		}
		return s
	}
	return nil
}

// goCapture is the --capture argument of a go-sdk client's stdio session.
func goCapture(caps string) string { return filepath.Join(caps, "{pid}.jsonl") }
