// Package oauth_test runs real OAuth-capable MCP clients — the TypeScript
// SDK v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client)
// with an in-memory OAuth provider, and mcp-remote --enable-proxy driven by
// a go-sdk stdio client — against the OAuth-protected test server of
// ../oauthserver: directly (direct_test.go) and through the real
// `mcptrail http --forward` binary (forward_test.go).
//
// The Node packages come from npm at test time, never from the repository:
// $MCPTRAIL_NODE_OAUTH names a directory whose node_modules holds them
// (.ci/run prepares it), else TestMain installs them into a temporary
// directory. Without node or npm the tests skip, unless CI is set, when
// they fail.
package oauth_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// NodeEnv names the directory whose node_modules holds NodePackages.
const NodeEnv = "MCPTRAIL_NODE_OAUTH"

// NodePackages are the npm packages the clients need, pinned (undici 6 is
// the line Node 20 bundles; the scripts use its EnvHttpProxyAgent).
const NodePackages = "@modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/client@2.4.0 mcp-remote@0.15.1 undici@6.24.1"

// setup is what TestMain prepared, set once before any test runs.
type setup struct {
	mcptrail string
	nodeDir  string // holds node_modules; "" when nodeErr says why not
	nodeErr  string
}

var env setup

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "mcptrail-oauth-node-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	env.nodeDir, env.nodeErr = prepareNode(tmp)
	code := testbin.Main(m, testbin.Target{Out: &env.mcptrail, Pkg: testbin.Mcptrail})
	os.RemoveAll(tmp)
	os.Exit(code)
}

// prepareNode returns the directory holding the clients' node_modules:
// $MCPTRAIL_NODE_OAUTH, or NodePackages installed with npm under tmp; or
// why there is none.
func prepareNode(tmp string) (string, string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	if dir := os.Getenv(NodeEnv); dir != "" {
		return dir, ""
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Sprintf("%s is unset and npm is not installed (.ci/run installs %s)", NodeEnv, NodePackages)
	}
	args := append([]string{"install", "--no-save", "--no-audit", "--no-fund", "--prefix", tmp}, strings.Fields(NodePackages)...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		return "", fmt.Sprintf("%s is unset and `npm install` failed: %v\n%s", NodeEnv, err, strings.TrimSpace(string(out)))
	}
	return tmp, ""
}

// nodeDir returns the directory holding node_modules, or skips t (fails
// it under CI) when TestMain could not prepare one.
func nodeDir(t *testing.T) string {
	t.Helper()
	if env.nodeDir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Node clients: %s", env.nodeErr)
		}
		t.Skipf("no Node clients: %s", env.nodeErr)
	}
	return env.nodeDir
}

// scripts copies testdata/oauth/*.mjs into a fresh directory beside a
// node_modules link to the prepared packages, so the scripts' bare imports
// resolve, and returns that directory.
func scripts(t *testing.T) string {
	t.Helper()
	nm := filepath.Join(nodeDir(t), "node_modules")
	dir := t.TempDir()
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Glob(filepath.Join("..", "testdata", "oauth", "*.mjs"))
	if err != nil || len(src) == 0 {
		t.Fatalf("no client scripts under ../testdata/oauth: %v", err)
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
