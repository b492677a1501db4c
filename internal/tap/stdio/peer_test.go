package stdio_test

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestMain lets the test binary stand in as the test server (testbin.Peer),
// so these tests need no sh, cat or sleep and run on Windows too.
func TestMain(m *testing.M) { testbin.PeerMain(m) }

// peer returns the command line of a test server running ops (testbin.Peer).
func peer(t testing.TB, ops ...string) []string { return testbin.PeerCommand(t, ops...) }
