// Package real_test is the sweep of issue 26: real MCP sessions, recorded
// through the real mcptrail binary with real peers — the TypeScript SDK v1
// (1.32.2) and v2 (2.4.0, versionNegotiation "legacy" and "auto") clients,
// the v2 server (testdata/server-v2.mjs), the reference server-everything
// 2026.8.31 (a TypeScript SDK v1 server), the go-sdk v1.8.0 and mcp-go
// servers of ../sdkpeer and ../mcpgopeer, and Claude Code's health check —
// over stdio (`mcptrail -- SERVER`) and Streamable HTTP (`mcptrail http
// --target URL`), in both eras. Every session covers what its peers can do
// of cancellation, progress, sampling, roots, form and URL-mode
// elicitation and list_changed, and `mcptrail check --fail-on info` must
// exit 0 on it: correct traffic raises no finding. A session whose peer
// really deviates from the spec names the rule ids it must raise, each
// with the reason, and nothing else (allow in sweep_test.go).
//
// TestMain builds mcptrail and the go-sdk and mcp-go stdio servers once;
// the Node peers come from testbin.NodeModules ($MCPTRAIL_NODE). Under
// -race, mcptrail is built with -race too.
package real_test

import (
	"flag"
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

// parallel is how many sessions run at once unless -test.parallel says:
// a session mostly waits on its peers, so more than GOMAXPROCS keep a
// 2-core machine busy (the suite takes about 3 minutes there).
const parallel = "4"

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", parallel)
	}
	code := testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.mcpgoserver, Pkg: testbin.Module + "/internal/e2e/peers/cmd/mcpgoserver"},
	)
	os.Exit(code)
}
