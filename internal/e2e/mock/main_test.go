// Package mock_test runs real MCP clients against `mcptrail mock` of their
// own capture: a go-sdk client (both eras, stdio and Streamable HTTP) and a
// TypeScript SDK client first talk to the real server through the mcptrail
// tap, then to the mock of that capture, itself recorded through the tap;
// both sessions must give the client the same results and carry the same
// ledger, and neither may raise a finding. It also feeds the mock hostile
// captures and requests the recording never saw.
//
// TestMain builds mcptrail and the SDK server once into a temporary
// directory; the tests run them as separate processes.
package mock_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail  string
	sdkserver string
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	code := testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
	)
	os.Exit(code)
}
