package replay_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// recordings holds the captures the go-sdk client made, one per era,
// recorded once for every test that replays them.
type recordings struct {
	once   sync.Once
	dir    string
	modern string
	legacy string
	err    error
}

var recorded recordings

// recording returns the capture of the era's session (legacy: 2025-11-25,
// the book tool; else 2026-07-28: confirm, then chained).
func recording(t *testing.T, legacy bool) string {
	t.Helper()
	recorded.once.Do(func() {
		recorded.dir, recorded.err = os.MkdirTemp("", "mcptrail-replay-")
		if recorded.err != nil {
			return
		}
		recorded.modern, recorded.err = record(false)
		if recorded.err == nil {
			recorded.legacy, recorded.err = record(true)
		}
	})
	if recorded.err != nil {
		t.Fatalf("recording the go-sdk sessions: %v", recorded.err)
	}
	if legacy {
		return recorded.legacy
	}
	return recorded.modern
}

// record runs a go-sdk client against `mcptrail --capture X -- sdkserver`
// and returns X.
func record(legacy bool) (string, error) {
	return recordTo(recorded.dir, legacy, true)
}

// recordTo is record into dir; list false leaves out the client's
// tools/list, so the capture has no catalog.
func recordTo(dir string, legacy, list bool) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	name, version, serverArgs := "modern.jsonl", "2026-07-28", []string(nil)
	if legacy {
		name, version, serverArgs = "legacy.jsonl", "2025-11-25", []string{"-legacy"}
	}
	path := filepath.Join(dir, name)
	stderr := new(testbin.Buffer)
	cmd := exec.Command(bins.mcptrail, append([]string{"--capture", path, "--", bins.sdkserver}, serverArgs...)...)
	cmd.Stderr = stderr
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+dir)
	client := mcp.NewClient(&mcp.Implementation{Name: "replay-e2e-client", Version: "1.0.0"},
		&mcp.ClientOptions{ElicitationHandler: accept})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return "", fmt.Errorf("connecting: %w\n%s", err, stderr.Bytes())
	}
	tools := []string{"confirm", "chained"}
	if legacy {
		tools = []string{"book"}
	}
	if list {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			return "", fmt.Errorf("listing tools: %w", err)
		}
	}
	for _, tool := range tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool})
		if err != nil || res.IsError {
			return "", fmt.Errorf("calling %s: %v %+v", tool, err, res)
		}
	}
	if err := cs.Close(); err != nil {
		return "", fmt.Errorf("closing: %w\n%s", err, stderr.Bytes())
	}
	return path, nil
}

// accept answers every form with a value of each field's type.
func accept(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	content := map[string]any{}
	m, _ := req.Params.RequestedSchema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	for name, p := range props {
		switch typ, _ := p.(map[string]any)["type"].(string); typ {
		case "boolean":
			content[name] = true
		case "integer", "number":
			content[name] = 2
		default:
			content[name] = "x"
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}
