package overlay

import (
	"flag"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got, *update) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
