package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// oauthSessions reads the OAuth corpus captures (internal/corpus writes
// them from its authFlow table) as sessions, by name: "oauth-clean" and
// one named after each oauth rule it raises. A capture that cannot be
// read is left out, which TestEveryRuleIsRaised then reports.
func oauthSessions() map[string][]step {
	paths, _ := filepath.Glob("../../testdata/oauth/*.capture.jsonl")
	out := map[string][]step{}
	for _, p := range paths {
		_, recs, _, err := capture.ReadFile(p)
		if err != nil {
			continue
		}
		var steps []step
		for i := range recs {
			steps = append(steps, step{rec: &recs[i]})
		}
		out[strings.TrimSuffix(filepath.Base(p), ".capture.jsonl")] = steps
	}
	return out
}

// TestOAuthCleanFlowIsQuiet: the clean flow raises no oauth finding, and
// each rule's capture raises that rule and no other oauth rule but the
// ones its expectation names (issuer and PKCE captures raise theirs twice).
func TestOAuthCleanFlowIsQuiet(t *testing.T) {
	t.Parallel()
	reg := allOn(t)
	sessions := oauthSessions()
	if len(sessions) < 10 {
		t.Fatalf("read %d OAuth captures, want 10", len(sessions))
	}
	for name, steps := range sessions {
		var oauthRules []string
		for _, id := range raisedBy(t, reg, steps) {
			id, _, _ = strings.Cut(id, "@")
			if r, _ := reg.Rule(id); r.Category == finding.OAuth {
				oauthRules = append(oauthRules, id)
			}
		}
		for _, id := range oauthRules {
			if id != name {
				t.Errorf("%s raised %s", name, id)
			}
		}
		if name != "oauth-clean" && len(oauthRules) == 0 {
			t.Errorf("%s raised no oauth rule", name)
		}
	}
}
