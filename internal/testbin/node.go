package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodePackages are the real Node peers the end-to-end tests run, pinned:
// the TypeScript SDK v1 and v2 (client and server), the reference
// server-everything, the ext-apps reference server (an MCP Apps server),
// the conformance harness, MCP Inspector's CLI, mcp-remote, undici 6 (the
// line Node 20 bundles: its EnvHttpProxyAgent), and the clients whose
// `mcp` commands run offline: Claude Code (its platform package ships the
// binary), Gemini CLI and Codex CLI.
var NodePackages = []string{
	"@modelcontextprotocol/sdk@1.32.2",
	"@modelcontextprotocol/client@2.4.0",
	"@modelcontextprotocol/server@2.4.0",
	"@modelcontextprotocol/server-everything@2026.8.31",
	"@modelcontextprotocol/server-basic-vanillajs@2.0.3",
	"@modelcontextprotocol/conformance@0.1.16",
	"@modelcontextprotocol/inspector-cli@1.0.3",
	"mcp-remote@0.15.1",
	"undici@6.24.1",
	"@anthropic-ai/claude-code@2.1.328",
	"@google/gemini-cli@0.61.0",
	"@openai/codex@0.169.0",
}

// NodeModules returns the node_modules directory that holds
// NodePackages: $MCPTRAIL_NODE's. Without node on PATH, or without the
// variable, it skips t, or fails it under CI=true (Heavy).
func NodeModules(t testing.TB) string {
	t.Helper()
	return nodeModules(t, NodeEnv, "the real Node peers")
}

// NodeOAuthModules returns the node_modules directory that holds the
// OAuth clients' packages (the TypeScript SDK v1 and v2 clients,
// mcp-remote, undici): $MCPTRAIL_NODE_OAUTH's, as NodeModules.
func NodeOAuthModules(t testing.TB) string {
	t.Helper()
	return nodeModules(t, NodeOAuthEnv, "the Node OAuth clients")
}

func nodeModules(t testing.TB, env, what string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("needs %s, and node is not installed under CI=true", what)
		}
		t.Skipf("skipping: needs %s; install node (apt-get install nodejs npm)", what)
	}
	dir := Heavy(t, env, what, ".ci/run installs them: npm install --prefix DIR the NodePackages of internal/testbin/node.go")
	return filepath.Join(dir, "node_modules")
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

// NodeScripts returns a fresh directory holding a copy of the files that
// match pattern (a filepath.Glob pattern: "testdata/*.mjs") beside a link
// to nodeModules, so that the scripts' bare imports resolve.
func NodeScripts(t testing.TB, nodeModules, pattern string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(nodeModules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Glob(pattern)
	if err != nil || len(src) == 0 {
		t.Fatalf("no scripts match %s: %v", pattern, err)
	}
	for _, p := range src {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
