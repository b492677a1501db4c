package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// NodeEnv names a directory whose node_modules holds NodePackages;
// .ci/run installs them there once for every test package.
const NodeEnv = "MCPTRAIL_NODE"

// NodePackages are the real Node peers the end-to-end tests run, pinned:
// the TypeScript SDK v1 and v2 (client and server), the reference
// server-everything, the conformance harness, mcp-remote, undici 6 (the
// line Node 20 bundles: its EnvHttpProxyAgent), and the clients whose
// `mcp` commands run offline: Claude Code (its platform package ships the
// binary), Gemini CLI and Codex CLI.
var NodePackages = []string{
	"@modelcontextprotocol/sdk@1.32.2",
	"@modelcontextprotocol/client@2.4.0",
	"@modelcontextprotocol/server@2.4.0",
	"@modelcontextprotocol/server-everything@2026.8.31",
	"@modelcontextprotocol/conformance@0.1.16",
	"mcp-remote@0.15.1",
	"undici@6.24.1",
	"@anthropic-ai/claude-code@2.1.328",
	"@google/gemini-cli@0.61.0",
	"@openai/codex@0.169.0",
}

var node struct {
	once sync.Once
	dir  string // holds node_modules
	tmp  string // set when dir was installed here, to remove
	err  error
}

// NodeModules returns the node_modules directory that holds
// NodePackages: $MCPTRAIL_NODE's, else the packages installed once per
// test binary with npm into a temporary directory (NodeCleanup removes
// it). Without node, or without npm when the variable is unset, it skips
// t, unless CI is set, when it fails.
func NodeModules(t testing.TB) string {
	t.Helper()
	node.once.Do(func() { node.dir, node.err = prepareNode() })
	if node.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Node peers: %v", node.err)
		}
		t.Skipf("no Node peers: %v", node.err)
	}
	return filepath.Join(node.dir, "node_modules")
}

// NodeBin returns the path of an executable the Node peers install under
// node_modules/.bin ("claude", "gemini", "codex", "conformance").
func NodeBin(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(NodeModules(t), ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no %s among the Node peers: %v", name, err)
	}
	return p
}

// NodeCleanup removes what NodeModules installed itself; TestMain calls
// it after m.Run.
func NodeCleanup() {
	if node.tmp != "" {
		os.RemoveAll(node.tmp)
	}
}

func prepareNode() (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is not installed")
	}
	if dir := os.Getenv(NodeEnv); dir != "" {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("%s is unset and npm is not installed (.ci/run installs them)", NodeEnv)
	}
	tmp, err := os.MkdirTemp("", "mcptrail-node-")
	if err != nil {
		return "", err
	}
	node.tmp = tmp
	args := append([]string{"install", "--no-save", "--no-audit", "--no-fund", "--prefix", tmp}, NodePackages...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s is unset and `npm install` failed: %v\n%s", NodeEnv, err, strings.TrimSpace(string(out)))
	}
	return tmp, nil
}
