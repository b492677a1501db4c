package corpus

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// corpusRules are the rules issue 13 asks the corpus to prove both ways:
// the elicitation rules and the tool-definition rules.
func corpusRules(r finding.Rule) bool {
	return r.Category == finding.Elicitation ||
		slices.Contains([]string{finding.ToolSchemaInvalid, finding.ToolNameInvalid, finding.ToolDefinitionChanged}, r.ID)
}

// TestCorpusRaisesEachRule fails for an elicitation or tool-definition
// rule that no transcript raises, or that every transcript raises: each
// needs one transcript that raises it and one that must not (TestCorpus
// holds every transcript to its expected findings, so the expectations
// are what the export shows). An opt-in rule is off in the corpus's
// default registry; internal/rules' TestEveryRuleIsRaised and
// TestQuietSessions prove it both ways.
func TestCorpusRaisesEachRule(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(transcriptDir, "*.expect.toml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no expectations: %v", err)
	}
	raisedBy, quietIn := map[string][]string{}, map[string][]string{}
	reg := rules.Default()
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".expect.toml")
		e := loadExpectation(t, name)
		for _, r := range reg.Rules() {
			if e.Findings[r.ID] > 0 {
				raisedBy[r.ID] = append(raisedBy[r.ID], name)
			} else {
				quietIn[r.ID] = append(quietIn[r.ID], name)
			}
		}
	}
	n := 0
	for _, r := range reg.Rules() {
		if !corpusRules(r) || r.Off {
			continue
		}
		n++
		if len(raisedBy[r.ID]) == 0 {
			t.Errorf("rule %s: no transcript raises it", r.ID)
		}
		if len(quietIn[r.ID]) == 0 {
			t.Errorf("rule %s: every transcript raises it; none shows it quiet", r.ID)
		}
	}
	if n < 10 {
		t.Errorf("checked %d rules, want the elicitation and tool-definition rules (at least 10)", n)
	}
}
