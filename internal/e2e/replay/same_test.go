package replay_test

import (
	"os"
	"strings"
	"testing"
)

// TestReplaySameServer replays each era's recording against the server
// that made it: nothing differs, replay exits 0 and writes a new capture.
func TestReplaySameServer(t *testing.T) {
	t.Parallel()
	for _, legacy := range []bool{false, true} {
		name := map[bool]string{false: "modern", true: "legacy"}[legacy]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := []string{recording(t, legacy), "--", bins.sdkserver}
			if legacy {
				args = append(args, "-legacy")
			}
			o := runReplay(t, args...)
			if o.code != 0 {
				t.Fatalf("replay exited %d, want 0\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
			}
			if strings.Contains(o.stdout, "unanswered") {
				t.Errorf("replay left questions unanswered:\n%s", o.stdout)
			}
			if o.capture == "" {
				t.Fatalf("replay printed no capture path on stderr:\n%s", o.stderr)
			}
			if _, err := os.Stat(o.capture); err != nil {
				t.Fatalf("the new capture: %v", err)
			}
		})
	}
}
