package replay_test

import (
	"os"
	"strings"
	"testing"
)

// eras names the two recordings.
var eras = []struct {
	name   string
	legacy bool
	server []string // sdkserver's era flag
}{
	{"modern", false, nil},
	{"legacy", true, []string{"-legacy"}},
}

// TestReplaySameServer replays each era's recording against the server
// that made it: nothing differs, replay prints nothing on stdout, exits 0
// and writes a new capture. Durations are not compared (--slower-than 0):
// on a shared machine a process start may take twice as long; the slow
// variant of TestReplayVariants covers them.
func TestReplaySameServer(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{recording(t, era.legacy), "--slower-than", "0", "--allow-destructive", "--", bins.sdkserver}, era.server...)
			o := runReplay(t, args...)
			if o.code != 0 || o.stdout != "" {
				t.Fatalf("replay exited %d with this on stdout, want 0 and nothing\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
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

// TestReplayVariants replays each era's recording against variants of the
// server (sdkpeer.ApplyVariant): each difference is reported with its
// path or what changed, and replay exits 1.
func TestReplayVariants(t *testing.T) {
	t.Parallel()
	cases := []struct {
		variant string
		modern  []string // lines stdout must hold, against the modern recording
		legacy  []string // and against the legacy one
	}{{
		variant: "changed",
		modern:  []string{`tools/call[confirm]`, `result /content/0/text changed: "confirm: accepted" -> "confirm: approved"`},
		legacy:  []string{`tools/call[book]`, `result /content/0/text changed: "guests: accepted" -> "guests: approved"`},
	}, {
		variant: "error",
		modern:  []string{`error appeared: -32603 confirm: the service is down`, `rounds 2 -> 1`, `tools/call[confirm] key "confirm" removed: "Proceed?"`},
		legacy:  []string{`error appeared: -32603 book: the service is down`, `tools/call[book] removed: "How many guests?"`},
	}, {
		variant: "extra-field",
		modern:  []string{`tools/call[confirm] key "confirm" changed: "Proceed?"`, `field-added note: "string"`},
		legacy:  []string{`tools/call[book] changed: "How many guests?"`, `field-added note: "string"`},
	}, {
		variant: "slow",
		modern:  []string{`slower: tools/call[confirm] `},
		legacy:  []string{`slower: tools/call[book] `},
	}}
	for _, tc := range cases {
		for _, era := range eras {
			t.Run(tc.variant+"/"+era.name, func(t *testing.T) {
				t.Parallel()
				args := append([]string{recording(t, era.legacy), "--allow-destructive", "--", bins.sdkserver, "-variant", tc.variant}, era.server...)
				o := runReplay(t, args...)
				want := tc.modern
				if era.legacy {
					want = tc.legacy
				}
				if o.code != 1 {
					t.Errorf("replay exited %d, want 1\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
				}
				for _, w := range want {
					if !strings.Contains(o.stdout, w) {
						t.Errorf("stdout lacks %q\nstdout:\n%s\nstderr:\n%s", w, o.stdout, o.stderr)
					}
				}
			})
		}
	}
}

// TestReplayOnly replays only the chained tool against the variant whose
// confirm tool changed: confirm is not sent, so nothing differs (the calls
// not sent are not counted as missing) and replay exits 0.
func TestReplayOnly(t *testing.T) {
	t.Parallel()
	o := runReplay(t, recording(t, false), "--only", "tool:chained", "--slower-than", "0", "--allow-destructive", "--", bins.sdkserver, "-variant", "changed")
	if o.code != 0 || o.stdout != "" {
		t.Fatalf("replay exited %d, want 0 and nothing on stdout\nstdout:\n%s\nstderr:\n%s", o.code, o.stdout, o.stderr)
	}
	if !strings.Contains(o.stderr, "replaying 3 calls") {
		t.Errorf("stderr does not say 3 calls are replayed (discover, list, chained):\n%s", o.stderr)
	}
}
