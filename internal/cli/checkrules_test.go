package cli

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/rules"
)

// TestNarrowRulesEnablesNamed: --rule names the rules to run, an opt-in
// one (off by default) included, unless --skip names it too; the others
// are off.
func TestNarrowRulesEnablesNamed(t *testing.T) {
	t.Parallel()
	const optIn = "approval-missing"
	if rules.Default().Enabled(optIn) {
		t.Fatalf("%s is on by default; this test needs an opt-in rule", optIn)
	}
	tests := []struct {
		name       string
		only, skip []string
		want       map[string]bool
	}{
		{"named", []string{optIn, "late-result"}, nil, map[string]bool{optIn: true, "late-result": true, "invalid-frame": false}},
		{"named and skipped", []string{optIn, "late-result"}, []string{optIn}, map[string]bool{optIn: false, "late-result": true}},
		{"none named", nil, nil, map[string]bool{optIn: false, "late-result": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := rules.Default()
			if err := narrowRules(reg, tt.only, tt.skip, nil); err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.want {
				if got := reg.Enabled(id); got != want {
					t.Errorf("%s enabled = %v, want %v", id, got, want)
				}
			}
		})
	}
}
