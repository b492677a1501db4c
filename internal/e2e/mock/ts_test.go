package mock_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// tsResult is what the client script prints.
type tsResult struct {
	Tools      []string       `json:"tools"`
	Result     map[string]any `json:"result"`
	Asked      []string       `json:"asked"`
	Unrecorded string         `json:"unrecorded"`
}

// TestTypeScriptClient records a TypeScript SDK client's session with the
// legacy sdkserver through the tap, then runs the same client against the
// mock of that capture, through the tap too.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	// The TypeScript SDK v1 client: $MCPTRAIL_NODE_OAUTH holds it.
	dir := testbin.NodeScripts(t, testbin.NodeOAuthModules(t), filepath.Join("testdata", "ts-client.mjs"))
	recorded, mocked := filepath.Join(dir, "recorded.jsonl"), filepath.Join(dir, "mocked.jsonl")
	want := runTS(t, dir, "", "--capture", recorded, "--", bins.sdkserver, "-legacy")
	got := runTS(t, dir, "", "--capture", mocked, "--", bins.mcptrail, "mock", recorded)
	asked := runTS(t, dir, "never-recorded", "--capture", filepath.Join(dir, "unrecorded.jsonl"), "--", bins.mcptrail, "mock", recorded)
	const unrecorded = "mcptrail mock: no recorded answer for tools/call never-recorded"
	if !strings.Contains(asked.Unrecorded, unrecorded) {
		t.Errorf("the mock answered a tool the recording never saw with %q, want %q", asked.Unrecorded, unrecorded)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what the TypeScript client saw: real server (-) vs mock (+):\n%s", diff)
	}
	if len(want.Asked) != 1 {
		t.Errorf("the client was asked %q, want one question", want.Asked)
	}
	rx, mx := runExport(t, recorded), runExport(t, mocked)
	if len(rx.Elicitations) != 1 {
		t.Errorf("the recorded ledger has %d rows, want 1", len(rx.Elicitations))
	}
	if diff := cmp.Diff(rx.Elicitations, mx.Elicitations); diff != "" {
		t.Errorf("ledger: recorded (-) vs mocked (+):\n%s", diff)
	}
	for name, x := range map[string]*exported{"recorded": rx, "mocked": mx} {
		if f := x.findings(t); len(f) != 0 {
			t.Errorf("findings in the %s session: %v, want none", name, f)
		}
	}
}

// runTS runs the client script with `mcptrail tapArgs...` as its server;
// unrecorded, when not empty, is a tool it calls last.
func runTS(t *testing.T, dir, unrecorded string, tapArgs ...string) tsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"ts-client.mjs", bins.mcptrail}, tapArgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCPTRAIL_HOME="+dir, "UNRECORDED="+unrecorded)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node ts-client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	var r tsResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &r); err != nil {
		t.Fatalf("node ts-client.mjs printed %q: %v\nstderr:\n%s", stdout.Bytes(), err, stderr.Bytes())
	}
	return r
}
