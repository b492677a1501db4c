// Package oauth_test runs real OAuth-capable MCP clients — the TypeScript
// SDK v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client)
// with an in-memory OAuth provider, and mcp-remote --enable-proxy driven by
// a go-sdk stdio client — against the OAuth-protected test server of
// ../oauthserver: directly (direct_test.go) and through the real
// `mcptrail http --forward` binary (forward_test.go).
//
// The Node packages come from npm, never from the repository:
// $MCPTRAIL_NODE_OAUTH names a directory whose node_modules holds them
// (.ci/run prepares it). Without it the tests skip, or fail under CI=true.
package oauth_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// setup is what TestMain prepared, set once before any test runs.
type setup struct {
	mcptrail string
}

var env setup

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, testbin.Target{Out: &env.mcptrail, Pkg: testbin.Mcptrail}))
}

// scripts copies testdata/oauth/*.mjs into a fresh directory beside a
// node_modules link to the OAuth clients' packages ($MCPTRAIL_NODE_OAUTH),
// so the scripts' bare imports resolve, and returns that directory; it
// skips t without them (fails it under CI=true).
func scripts(t *testing.T) string {
	t.Helper()
	return testbin.NodeScripts(t, testbin.NodeOAuthModules(t), filepath.Join("..", "testdata", "oauth", "*.mjs"))
}
