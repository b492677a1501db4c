// Package golden reads the one -update flag of mcptrail's tests and
// compares a test's output with its golden file. It is used only from
// tests (internal/archtest keeps it out of the program) and keeps no state:
// the flag is parsed by the testing package before any test runs.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	// The flag itself is the one teatest's golden package declares: the TUI
	// tests link that package, and a second "update" would panic there.
	_ "github.com/charmbracelet/x/exp/golden"
	"github.com/google/go-cmp/cmp"
)

// Update reports whether the tests run with -update (`go test ./...
// -update`), so a test that writes its golden its own way (a capture, a
// docs page) rewrites it instead of comparing.
func Update() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	on, _ := f.Value.(flag.Getter).Get().(bool)
	return on
}

// Check compares got with the golden file at path and fails t with the
// difference, or, under -update, rewrites the file (and its directory)
// instead.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("creating the directory of golden %s: %v", path, err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("writing golden %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}
