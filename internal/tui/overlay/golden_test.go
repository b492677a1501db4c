package overlay

import (
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// golden compares got with testdata/name.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
