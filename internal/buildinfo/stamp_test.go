package buildinfo_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStampedBuild builds mcptrail as .goreleaser.yaml does (less
// -trimpath, which would rebuild every dependency), with
// the version, commit and date stamped by -ldflags -X, and checks that
// `mcptrail version` (text and --json) and --version report them.
func TestStampedBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "mcptrail")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	const pkg = "github.com/mcptrail/mcptrail/internal/buildinfo"
	ldflags := "-s -w -X " + pkg + ".version=9.8.7 -X " + pkg + ".commit=0123456789abcdef -X " + pkg + ".date=2026-12-01T01:02:03Z"
	build := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "github.com/mcptrail/mcptrail/cmd/mcptrail")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("mcptrail %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	text := run("version")
	lines := strings.Split(text, "\n")
	if diff := cmp.Diff([]string{"mcptrail 9.8.7", "commit: 0123456789abcdef", "date: 2026-12-01T01:02:03Z"}, lines[:3]); diff != "" {
		t.Errorf("mcptrail version, first lines (-want +got):\n%s\nall:\n%s", diff, text)
	}
	if got := run("--version"); got != text {
		t.Errorf("mcptrail --version = %q, want the same as version: %q", got, text)
	}
	var facts struct{ Version, Commit, Date, Module string }
	if err := json.Unmarshal([]byte(run("version", "--json")), &facts); err != nil {
		t.Fatal(err)
	}
	want := struct{ Version, Commit, Date, Module string }{"9.8.7", "0123456789abcdef", "2026-12-01T01:02:03Z", "github.com/mcptrail/mcptrail"}
	if diff := cmp.Diff(want, facts); diff != "" {
		t.Errorf("mcptrail version --json (-want +got):\n%s", diff)
	}
}
