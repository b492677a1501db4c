package e2e_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// TestCheckFingerprintsAcrossRuns plays transcripts through the real proxy
// twice each and checks the captures: the two runs of one scenario give
// the same fingerprints, and other scenarios' problems other ones.
func TestCheckFingerprintsAcrossRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	play := func(name, out string) string {
		script := filepath.Join("..", "..", "testdata", "transcripts", name+".transcript.jsonl")
		tr, err := transcript.Load(script)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, out)
		testbin.PlayThroughProxy(t, bins.mcptrail, tr, script, []string{"MCPTRAIL_HOME=" + filepath.Join(dir, "state")}, "--capture", path)
		return path
	}
	scenarios := []string{"duplicate-response", "mrtr-tampered-state", "invalid-frames"}
	var paths []string
	for _, s := range scenarios {
		paths = append(paths, play(s, s+"-1.jsonl"), play(s, s+"-2.jsonl"))
	}
	prints := checkFingerprints(t, paths...)
	seen := map[string]string{}
	for i, s := range scenarios {
		first, second := prints[2*i], prints[2*i+1]
		if len(first) == 0 {
			t.Errorf("%s: no findings", s)
		}
		if diff := cmp.Diff(first, second); diff != "" {
			t.Errorf("%s: fingerprints differ between two runs (-first +second):\n%s", s, diff)
		}
		for _, fp := range first {
			if other, ok := seen[fp]; ok && other != s {
				t.Errorf("fingerprint %s is raised by both %s and %s", fp, other, s)
			}
			seen[fp] = s
		}
	}
}

// checkFingerprints runs check -T json on paths and returns each
// session's fingerprints, sorted.
func checkFingerprints(t *testing.T, paths ...string) [][]string {
	t.Helper()
	cmd := exec.Command(bins.mcptrail, append([]string{"check", "-T", "json", "--fail-on", "info"}, paths...)...)
	cmd.Env = append(cmd.Environ(), "MCPTRAIL_HOME="+t.TempDir())
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("check: %v", err)
	}
	var rep struct {
		Results []struct {
			Items []struct {
				Fingerprint string `json:"fingerprint"`
			} `json:"items"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("decoding the report: %v\n%s", err, out)
	}
	if len(rep.Results) != len(paths) {
		t.Fatalf("%d results for %d captures", len(rep.Results), len(paths))
	}
	prints := make([][]string, len(paths))
	for i, res := range rep.Results {
		for _, it := range res.Items {
			prints[i] = append(prints[i], it.Fingerprint)
		}
		slices.Sort(prints[i])
	}
	return prints
}
