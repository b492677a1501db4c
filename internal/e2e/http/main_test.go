// Package http_test runs real MCP peers built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk v1.8.0) over Streamable HTTP
// through the real `mcptrail http` binary, and compares what the store
// made of the capture (`mcptrail export -T json`) with what it makes of the
// same conversation over stdio. It also checks the HTTP-only behaviour:
// status frames (401, 403, 202, 405, 502), Host validation, SSE latency and
// that no Authorization value reaches the capture.
//
// The MCP servers run in the test process (go-sdk's StreamableHTTPHandler
// behind httptest); mcptrail and, for the stdio comparison, the SDK stdio
// server of ../sdk run as separate processes; under -race, mcptrail is
// built with -race too.
package http_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail  string
	sdkserver string
	sdkclient string // the go-sdk client the conformance harness runs
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	code := testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.sdkclient, Pkg: testbin.Module + "/internal/e2e/http/cmd/sdkclient"},
	)
	os.Exit(code)
}
