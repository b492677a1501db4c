// Package peers_test runs real MCP peers of two SDKs — the official go-sdk
// (github.com/modelcontextprotocol/go-sdk v1.8.0) and mcp-go
// (github.com/mark3labs/mcp-go v1.2.1) — against each other through the
// real mcptrail binary, over stdio (`mcptrail -- SERVER`) and Streamable
// HTTP (`mcptrail http --target URL`), in both protocol eras, and checks
// every capture with `mcptrail check` and the default rules: real SDK
// traffic must raise no finding at all.
//
// TestMain builds mcptrail and the two stdio servers (../sdk/cmd/sdkserver
// and ./cmd/mcpgoserver) once; the HTTP servers run in the test process
// behind httptest. Under -race, mcptrail is built with -race too.
package peers_test

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
	os.Exit(testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.mcpgoserver, Pkg: testbin.Module + "/internal/e2e/peers/cmd/mcpgoserver"},
	))
}
