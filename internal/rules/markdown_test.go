package rules

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/golden"
)

// TestRulesPage keeps docs/rules.md in step with the registry.
func TestRulesPage(t *testing.T) {
	const path = "../../docs/rules.md"
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Default()); err != nil {
		t.Fatal(err)
	}
	if golden.Update() {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("%s is stale; run go test ./internal/rules -update (-want +got):\n%s", path, diff)
	}
}
