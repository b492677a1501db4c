package http_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// secretMembers are member names --redact-secrets must scrub however they
// are spelled; keptMembers are tool arguments it must leave alone.
func secretMembers() []string {
	return []string{"GITHUB_TOKEN", "github_token", "OPENAI_API_KEY", "aws_secret_access_key", "access-token", "private-key"}
}

func keptMembers() []string {
	return []string{"max_tokens", "token_count", "inputTokens", "progressToken", "keyboard", "monkey"}
}

// secretArgs returns tool arguments with each secret member holding
// canary plus a letter, at the top, in an env object and nested, and each
// kept member holding "kept" plus a letter.
func secretArgs(canary string) map[string]any {
	flat := map[string]any{}
	for i, n := range secretMembers() {
		flat[n] = canary + string(rune('a'+i))
	}
	for i, n := range keptMembers() {
		flat[n] = "kept" + string(rune('a'+i))
	}
	args := map[string]any{"cmd": "deploy", "env": flat, "deep": []any{map[string]any{"config": flat}}}
	for k, v := range flat {
		args[k] = v
	}
	return args
}

// TestRedactSecretMembersHTTP: a go-sdk client calls a go-sdk server's
// tool through the real `mcptrail http --redact-secrets` with secrets
// under GITHUB_TOKEN, github_token, OPENAI_API_KEY, aws_secret_access_key,
// access-token and private-key (arguments, an env object, nested) and an
// Mcp-Param-Github-Token header; the server echoes them in its structured
// result. The tool gets every value and the client the echo, but the
// capture and its exports hold no canary, and max_tokens, token_count,
// inputTokens, progressToken, keyboard and monkey keep their values.
func TestRedactSecretMembersHTTP(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const canary = "http-member-canary-61c0de"
	srv := mcp.NewServer(&mcp.Implementation{Name: "secret-echo", Version: "1.0.0"}, nil)
	got := make(chan map[string]any, 1)
	mcp.AddTool(srv, &mcp.Tool{Name: "deploy", Description: "echoes its arguments"},
		func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			got <- in
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"echo": in}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	tp := startTap(t, ts.URL+"/mcp", "--redact-secrets")
	hc := &http.Client{Transport: headerAdder{h: http.Header{"Mcp-Param-Github-Token": {canary + "h"}}, next: http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: clientVersion}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: tp.url("/mcp"), HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: secretArgs(canary)})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	cs.Close()
	tp.stop(t)
	want := secretArgs(canary)
	if in := <-got; in["GITHUB_TOKEN"] != want["GITHUB_TOKEN"] || in["env"].(map[string]any)["private-key"] != want["private-key"] {
		t.Errorf("the tool got %v, not the client's arguments", in)
	}
	if echo, _ := res.StructuredContent.(map[string]any)["echo"].(map[string]any); echo["OPENAI_API_KEY"] != want["OPENAI_API_KEY"] {
		t.Errorf("the client got %v, not the server's echo", res.StructuredContent)
	}
	file, err := os.ReadFile(tp.capture)
	if err != nil {
		t.Fatal(err)
	}
	testbin.NoCanary(t, canary, "the capture", string(file))
	export := string(runExport(t, tp.capture))
	testbin.NoCanary(t, canary, "the JSON export", export)
	testbin.NoCanary(t, canary, "the HAR", string(exportHAR(t, tp.capture)))
	for i, n := range keptMembers() {
		if want := `"` + n + `":"kept` + string(rune('a'+i)) + `"`; strings.Count(string(file), want) < 6 {
			t.Errorf("the capture holds %s %d times, want 6 (arguments, env, nested; request and echo)", want, strings.Count(string(file), want))
		}
	}
	if !strings.Contains(string(file), `"Mcp-Param-Github-Token":"[REDACTED]"`) {
		t.Error("the Mcp-Param-Github-Token header is not kept as redacted")
	}
}
