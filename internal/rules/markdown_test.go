package rules

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesPage keeps docs/rules.md in step with the registry.
func TestRulesPage(t *testing.T) {
	const path = "../../docs/rules.md"
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Default()); err != nil {
		t.Fatal(err)
	}
	if *update {
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
