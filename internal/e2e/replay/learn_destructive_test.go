package replay_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/e2e/sdkpeer"
)

// TestLearningRunSendsNoDestructiveCall: with --allow-destructive the
// first run sends the calls to tools the server lists destructiveHint:
// true, each once; the learning run (the second, which the server sees
// last: its -wire copy of its stdin is that run's) sends none of them,
// only the tools/list it judges by.
func TestLearningRunSendsNoDestructiveCall(t *testing.T) {
	t.Parallel()
	rec := noListRecording(t, false)
	handshake, tools := eraTools(false)
	wire := t.TempDir()
	o := runReplay(t, rec, "--slower-than", "0", "--allow-destructive", "--",
		bins.sdkserver, "-listing", sdkpeer.ListingDestructive, "-wire", wire)
	if o.code != 0 {
		t.Fatalf("replay exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	want := []string{handshake}
	for _, tool := range tools {
		want = append(want, "tools/call "+tool)
	}
	if got := sentCalls(t, o.capture); !slices.Equal(got, want) {
		t.Errorf("the first run sent %q, want %q", got, want)
	}
	in, err := os.ReadFile(filepath.Join(wire, "server-in"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(in), `"tools/call"`) || !strings.Contains(string(in), `"tools/list"`) {
		t.Errorf("the learning run sent the server (want a tools/list and no tools/call):\n%s", in)
	}
	if !strings.Contains(o.stderr, "sends no call that may be destructive") {
		t.Errorf("stderr does not say the learning run leaves destructive calls out:\n%s", o.stderr)
	}
}
