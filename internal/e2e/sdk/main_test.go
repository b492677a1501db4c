// Package sdk_test runs real MCP peers built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk v1.8.0) through the real mcptrail
// binary, then reads the capture back with `mcptrail export -T json` and
// checks what the store made of it: calls, MRTR operations, legacy
// server-initiated requests, durations and findings.
//
// TestMain builds mcptrail and the SDK server (./cmd/sdkserver) once into a
// temporary directory; the tests run them as separate processes. Each test
// runs twice: once launched by the SDK's CommandTransport, as a real stdio
// client does, and once over teed pipes, so the bytes each peer wrote and
// read can be compared with each other and with the capture. Under -race,
// mcptrail itself is built with -race.
package sdk_test

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
	os.Exit(testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail, Race: raceBuild},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
	))
}
