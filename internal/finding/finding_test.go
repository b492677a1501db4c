package finding

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r, err := NewRegistry(
		Rule{ID: "late-result", Category: Protocol, Severity: Warning, Summary: "late"},
		Rule{ID: "null-id", Category: Protocol, Severity: Error, Summary: "null"},
		Rule{ID: "capture-gap", Category: Capture, Severity: Error, Summary: "gap"},
	)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewRegistryRejects(t *testing.T) {
	t.Parallel()
	ok := Rule{ID: "a", Category: Protocol, Severity: Info, Summary: "s"}
	for name, rules := range map[string][]Rule{
		"no id":       {{Category: Protocol, Severity: Info, Summary: "s"}},
		"no category": {{ID: "a", Severity: Info, Summary: "s"}},
		"no summary":  {{ID: "a", Category: Protocol, Severity: Info}},
		"bad grade":   {{ID: "a", Category: Protocol, Severity: "fatal", Summary: "s"}},
		"twice":       {ok, ok},
	} {
		if _, err := NewRegistry(rules...); err == nil {
			t.Errorf("%s: NewRegistry accepted %+v", name, rules)
		}
	}
}

func TestGrade(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	f := New(LateResult, 42, "id %d answered late", 7).OfCall(3)
	got, ok := r.Grade(f)
	want := Finding{Rule: "late-result", Severity: Warning, Seq: 42, Call: 3, Message: "id 7 answered late"}
	if !ok || got != want {
		t.Errorf("Grade = %+v, %v; want %+v", got, ok, want)
	}
	if err := r.SetSeverity(LateResult, Error); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Grade(f); got.Severity != Error {
		t.Errorf("re-graded severity = %q, want error", got.Severity)
	}
	if err := r.Disable(LateResult); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Grade(f); ok {
		t.Error("a disabled rule's finding was kept")
	}
	if err := r.Enable(LateResult); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Grade(New("no-such-rule", 1, "")); ok {
		t.Error("an unknown rule's finding was kept")
	}
	var none *Registry
	if got, ok := none.Grade(f); !ok || got != f {
		t.Errorf("nil registry Grade = %+v, %v; want f unchanged", got, ok)
	}
	if f := New(NullID, 0, ""); f.Call != -1 {
		t.Errorf("New's Call = %d, want -1", f.Call)
	}
}

func TestConfigureUnknown(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	if err := r.Disable("nope"); err == nil {
		t.Error("Disable of an unknown id succeeded")
	}
	if err := r.SetSeverity("nope", Error); err == nil {
		t.Error("SetSeverity of an unknown id succeeded")
	}
	if err := r.SetSeverity(NullID, "fatal"); err == nil {
		t.Error("SetSeverity to an unknown severity succeeded")
	}
}

func TestFilterAndClone(t *testing.T) {
	t.Parallel()
	r := testRegistry(t)
	c := r.Clone()
	if err := c.Disable(NullID); err != nil {
		t.Fatal(err)
	}
	if !r.Enabled(NullID) {
		t.Error("disabling a clone's rule disabled the original's")
	}
	only := r.Filter(func(rule Rule) bool { return rule.Category == Capture })
	var ids []string
	for _, rule := range only.Rules() {
		ids = append(ids, rule.ID)
	}
	if diff := cmp.Diff([]string{"capture-gap"}, ids); diff != "" {
		t.Errorf("filtered ids (-want +got):\n%s", diff)
	}
	if only.Enabled(NullID) {
		t.Error("a filtered-out rule is enabled")
	}
}

// TestOffRule: a rule marked Off starts disabled, drops its findings
// until enabled, and stays off by default in a clone.
func TestOffRule(t *testing.T) {
	t.Parallel()
	r, err := NewRegistry(Rule{ID: "opt", Category: Elicitation, Severity: Warning, Summary: "s", Off: true},
		Rule{ID: "on", Category: Elicitation, Severity: Info, Summary: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Enabled("opt") || r.OnByDefault("opt") || !r.Enabled("on") || !r.OnByDefault("on") {
		t.Fatalf("Enabled(opt)=%v OnByDefault(opt)=%v Enabled(on)=%v", r.Enabled("opt"), r.OnByDefault("opt"), r.Enabled("on"))
	}
	if _, kept := r.Grade(New("opt", 1, "x")); kept {
		t.Error("an Off rule's finding was kept")
	}
	c := r.Clone()
	if err := c.Enable("opt"); err != nil {
		t.Fatal(err)
	}
	if f, kept := c.Grade(New("opt", 1, "x")); !kept || f.Severity != Warning {
		t.Errorf("enabled Off rule: kept=%v severity=%q", kept, f.Severity)
	}
	if r.Enabled("opt") || !c.OnByDefault("on") || c.OnByDefault("opt") {
		t.Error("enabling the clone changed the original or OnByDefault")
	}
}
