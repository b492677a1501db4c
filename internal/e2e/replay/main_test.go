// Package replay_test runs `mcptrail replay` for real: a go-sdk client
// records a session with the go-sdk e2e server (../sdk/cmd/sdkserver)
// through the mcptrail binary, then the recording is replayed against the
// same server, against variants of it (sdkpeer.ApplyVariant), against a
// server that hangs or crashes, and from damaged captures. Each case
// checks the exit status, what replay printed, and that nothing it started
// is left running. The server's tools carry no annotations, so MCP assumes
// them destructive: the tests of what replay sends and compares pass
// --allow-destructive (the tools change nothing), and judge_test.go checks
// that without it they are skipped.
//
// TestMain builds mcptrail, sdkserver and the stubborn server once.
package replay_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// binaries are the programs TestMain built.
type binaries struct {
	mcptrail  string
	sdkserver string
	stubborn  string
}

// bins is set once by TestMain before any test runs and never changed.
var bins binaries

func TestMain(m *testing.M) {
	code := testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.stubborn, Pkg: testbin.Module + "/internal/e2e/stubborn"},
	)
	if recorded.dir != "" {
		os.RemoveAll(recorded.dir)
	}
	os.Exit(code)
}
