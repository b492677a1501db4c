// Package browser_test opens mcptrail's HTML report in a real browser:
// Debian's chromium, driven over the DevTools protocol with chromedp. The
// report comes from the real binary (`mcptrail demo`, a transcript played
// through the real proxy, `mcptrail export -T html`) and is loaded from
// file://, as someone given the file would open it.
//
// TestMain builds mcptrail once. Without a browser the tests skip, except
// under CI=true, where they fail (.ci/run installs chromium).
package browser_test

import (
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/testbin"
)

// bins are the programs TestMain built; set once before any test runs.
var bins struct {
	mcptrail string
}

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, testbin.Target{Out: &bins.mcptrail, Pkg: testbin.Mcptrail}))
}
