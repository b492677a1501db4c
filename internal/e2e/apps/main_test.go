// Package apps_test records sessions of a real MCP Apps server through
// the real mcptrail stdio tap: the ext-apps reference server
// @modelcontextprotocol/server-basic-vanillajs (from the Node peers,
// testbin.NodeModules), driven by a JSON-RPC client written here, and
// checks what the JSON export makes of its app tool: whether the host read
// its ui:// resource, and the app-resource-not-read finding when it did
// not.
//
// TestMain builds mcptrail once.
package apps_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// mcptrailBin is the binary TestMain built; set once before any test runs.
var mcptrailBin string

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, testbin.Target{Out: &mcptrailBin, Pkg: testbin.Mcptrail}))
}
