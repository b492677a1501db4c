package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestGradingReachesEveryFinding: the registry grades the findings raised
// while ingesting, those made from the capture's damage and the lazily
// made unanswered-request ones alike, and Len agrees with what All yields.
func TestGradingReachesEveryFinding(t *testing.T) {
	t.Parallel()
	steps := []step{c2s(ping("1")), c2s(ping("2")), c2s(cancelled("99")), endRec()}
	run := func(t *testing.T, cfg Config) []string {
		t.Helper()
		reg := Default()
		if err := cfg.Apply(reg); err != nil {
			t.Fatal(err)
		}
		st := store.New(&store.Options{Rules: reg, Checks: Checks()})
		for _, r := range records(steps) {
			st.Ingest(&r)
		}
		st.SetDamage(capture.Damage{Torn: true, TornBytes: 3})
		snap := st.Final()
		var got []string
		for f := range snap.Findings.All() {
			got = append(got, string(f.Severity)+" "+f.Rule)
		}
		if snap.Findings.Len() != len(got) {
			t.Errorf("Len() = %d, All yields %d", snap.Findings.Len(), len(got))
		}
		return got
	}
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"defaults", Config{}, []string{"warning unanswered-request", "warning unanswered-request", "info cancel-unknown-request", "warning capture-torn"}},
		{"re-graded", Config{Severity: map[string]string{"unanswered-request": "error", "capture-torn": "info"}},
			[]string{"error unanswered-request", "error unanswered-request", "info cancel-unknown-request", "info capture-torn"}},
		{"disabled", Config{Disable: []string{"unanswered-request", "capture-torn", "cancel-unknown-request"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, run(t, tt.cfg)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Disable: []string{"nope"}}, `rules.disable: unknown rule "nope" (mcptrail rules lists them)`},
		{Config{Severity: map[string]string{"nope": "error"}}, `rules.severity.nope: unknown rule "nope" (mcptrail rules lists them)`},
		{Config{Severity: map[string]string{"late-result": "fatal"}}, `rules.severity.late-result: unknown severity "fatal" (want error, warning or info)`},
	}
	for _, tt := range tests {
		err := tt.cfg.Apply(Default())
		if err == nil || err.Error() != tt.want {
			t.Errorf("Apply(%+v) = %v, want %s", tt.cfg, err, tt.want)
		}
	}
}

// TestDefaultIsFresh: each Default is a registry of its own.
func TestDefaultIsFresh(t *testing.T) {
	t.Parallel()
	a := Default()
	if err := a.Disable(finding.LateResult); err != nil {
		t.Fatal(err)
	}
	if !Default().Enabled(finding.LateResult) {
		t.Error("disabling a rule in one Default disabled it in the next")
	}
	for _, r := range a.Rules() {
		if r.Help == "" || r.Spec == "" || r.Summary == "" || r.Category == "" {
			t.Errorf("rule %s has empty metadata: %+v", r.ID, r)
		}
	}
}
