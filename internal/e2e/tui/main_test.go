// Package tui_test runs the real mcptrail TUI in a real terminal (tmux)
// beside a live proxy session driven by the official Go SDK client: what
// the user sees is read off the terminal with capture-pane while keys go in
// with send-keys.
//
// TestMain builds mcptrail, the SDK server of ../sdk/cmd/sdkserver and
// ../fastserver once.
// The tests need tmux: without it they skip, except under CI=true, where
// they fail (.ci/run installs it).
package tui_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// bins are the programs TestMain built; set once before any test runs.
var bins struct {
	mcptrail   string
	sdkserver  string
	fastserver string
}

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m,
		testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail},
		testbin.Target{Out: &bins.sdkserver, Pkg: testbin.Module + "/internal/e2e/sdk/cmd/sdkserver"},
		testbin.Target{Out: &bins.fastserver, Pkg: testbin.Module + "/internal/e2e/fastserver"},
	))
}
