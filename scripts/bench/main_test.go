package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAppendRequestIsExactlySize(t *testing.T) {
	for _, size := range []int{100, 256, 1024} {
		b := appendRequest(nil, 123456, size)
		if len(b) != size || !strings.HasSuffix(string(b), "}}}\n") {
			t.Errorf("size %d: got %d bytes: %q", size, len(b), b)
		}
	}
}

func TestLastSeq(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.jsonl")
	write := func(s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"type":"session"}` + "\n" + `{"type":"frame","seq":41,"dir":"c2s"}` + "\n")
	if got := lastSeq(p); got != 41 {
		t.Errorf("lastSeq = %d, want 41", got)
	}
	write(`{"type":"frame","seq":41,"dir":"c2s"}` + "\n" + `{"type":"frame","seq":42,"di`)
	if got := lastSeq(p); got != 41 {
		t.Errorf("a torn last record: lastSeq = %d, want 41", got)
	}
}

// TestBenchRuns measures a few frames through each configuration with the
// real binaries: every answer arrives and the capture holds every frame.
// The figures themselves are not judged (machines are noisy).
func TestBenchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcptrail")
	}
	dir := t.TempDir()
	home = filepath.Join(dir, "home")
	server, mcptrail := filepath.Join(dir, "fastserver"), filepath.Join(dir, "mcptrail")
	t.Chdir("../..")
	if err := goBuild(server, "./internal/e2e/fastserver"); err != nil {
		t.Fatal(err)
	}
	if err := goBuild(mcptrail, "./cmd/mcptrail"); err != nil {
		t.Fatal(err)
	}
	cfgs := configs(mcptrail, mcptrail, dir) // the same build as its own baseline
	if len(cfgs) < 5 || cfgs[3].name != "before: --no-capture" || cfgs[4].capture == cfgs[2].capture {
		t.Fatalf("configs with a baseline: %+v, want the floor, two modes and two \"before\" modes with their own capture", cfgs)
	}
	for _, c := range cfgs {
		if _, err := startupTime(c, server); err != nil {
			t.Errorf("%s: start-up: %v", c.name, err)
		}
		p, err := measure(c, server, 1024, 500)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.lost != 0 || p.answersShort != 0 || p.rate <= 0 || p.p50 <= 0 {
			t.Errorf("%s: %+v: want every frame answered and captured", c.name, p)
		}
	}
}
