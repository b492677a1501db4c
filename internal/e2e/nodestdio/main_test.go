// Package nodestdio_test runs real Node MCP peers through the real
// mcptrail stdio tap and checks what `mcptrail check` and the summary make
// of their sessions: the official TypeScript SDK's stdio clients, v1
// (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client, with
// versionNegotiation legacy and auto), calling close() as an application
// does at shutdown, against go-sdk and mcp-go servers and the reference
// server-everything; and Claude Code's `claude mcp list` health check.
// The Node peers come from testbin.NodeModules ($MCPTRAIL_NODE in CI).
//
// TestMain builds mcptrail and the two Go stdio servers
// (../sdk/cmd/sdkserver, ../peers/cmd/mcpgoserver) once. Under -race,
// mcptrail is built with -race too.
package nodestdio_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail    string
	sdkserver   string
	mcpgoserver string
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	code := testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.mcpgoserver, Pkg: testbin.Module + "/internal/e2e/peers/cmd/mcpgoserver"},
	)
	os.Exit(code)
}
