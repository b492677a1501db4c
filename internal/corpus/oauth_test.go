package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/golden"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// TestOAuthCaptures checks that each OAuth corpus capture holds the
// records its authFlow describes (-update rewrites them): the captures are
// in the capture format the forward proxy writes, one exchange record per
// discovery, registration, authorization and token exchange. Records are
// compared decoded, since the Writer orders header maps at random.
func TestOAuthCaptures(t *testing.T) {
	t.Parallel()
	for name, flow := range oauthFixtures() {
		path := filepath.Join(oauthDir, name+".capture.jsonl")
		want := flow.records(name)
		if golden.Update() {
			writeCapture(t, path, want)
			continue
		}
		h, recs, d, err := capture.ReadFile(path)
		if err != nil || d.Torn || d.Corrupt > 0 {
			t.Fatalf("reading %s: %v %+v", path, err, d)
		}
		got := append([]capture.Record{*h}, recs...)
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(capture.Record{}, "Line", "Offset")); diff != "" {
			t.Errorf("%s (-generated +file):\n%s", path, diff)
		}
	}
}

func writeCapture(t *testing.T, path string, recs []capture.Record) {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOAuthCorpus exports each OAuth capture through the real binary (JSON
// and text) and holds the JSON export to the capture's expectation.
func TestOAuthCorpus(t *testing.T) {
	t.Parallel()
	for name := range oauthFixtures() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(oauthDir, name+".capture.jsonl")
			dir := t.TempDir()
			expect := loadExpectationIn(t, oauthDir, name)
			for _, format := range []string{"json", "txt"} {
				got := export(t, path, format, dir)
				if format == "json" {
					checkExpectation(t, expect, []byte(got))
				}
				golden.Check(t, filepath.Join(oauthDir, name+"."+format+".golden"), got)
			}
		})
	}
}

// TestOAuthCorpusRaisesEachRule fails for an oauth rule that no OAuth
// capture raises, and for an oauth finding in the clean flow.
func TestOAuthCorpusRaisesEachRule(t *testing.T) {
	t.Parallel()
	raised := map[string]bool{}
	for name := range oauthFixtures() {
		e := loadExpectationIn(t, oauthDir, name)
		for id, n := range e.Findings {
			if n > 0 {
				raised[id] = true
			}
			if name == "oauth-clean" && slices.ContainsFunc(rules.Default().Rules(), func(r finding.Rule) bool {
				return r.ID == id && r.Category == finding.OAuth
			}) {
				t.Errorf("the clean flow raises %s", id)
			}
		}
	}
	n := 0
	for _, r := range rules.Default().Rules() {
		if r.Category != finding.OAuth {
			continue
		}
		n++
		if !raised[r.ID] {
			t.Errorf("rule %s: no OAuth capture raises it", r.ID)
		}
		if _, err := os.Stat(filepath.Join(oauthDir, r.ID+".capture.jsonl")); err != nil {
			t.Errorf("rule %s: no capture named after it: %v", r.ID, err)
		}
	}
	if n < 9 {
		t.Errorf("checked %d oauth rules, want 9", n)
	}
}
