package finding

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Registry is a set of rules with the user's overrides: which are
// disabled and which severities are re-graded. Build one with
// NewRegistry, configure it, then share it: its methods that read are
// safe for concurrent use, those that configure are not. A nil *Registry
// grades nothing: Grade keeps every finding as it is.
type Registry struct {
	rules    map[string]Rule
	disabled map[string]bool
	severity map[string]Severity
}

// NewRegistry returns a registry of rules, with the rules marked Off
// disabled. A rule without an id, a
// category or a summary, with an unknown severity, or whose id repeats
// another's is an error.
func NewRegistry(rules ...Rule) (*Registry, error) {
	r := &Registry{rules: make(map[string]Rule, len(rules)), disabled: map[string]bool{}, severity: map[string]Severity{}}
	for _, rule := range rules {
		if rule.ID == "" || rule.Category == "" || rule.Summary == "" {
			return nil, fmt.Errorf("registering rule %q: id, category and summary are required", rule.ID)
		}
		if _, err := ParseSeverity(string(rule.Severity)); err != nil {
			return nil, fmt.Errorf("registering rule %q: %w", rule.ID, err)
		}
		if _, dup := r.rules[rule.ID]; dup {
			return nil, fmt.Errorf("registering rule %q: registered twice", rule.ID)
		}
		r.rules[rule.ID] = rule
		if rule.Off {
			r.disabled[rule.ID] = true
		}
	}
	return r, nil
}

// Clone returns a copy that can be configured apart from r.
func (r *Registry) Clone() *Registry {
	return &Registry{rules: maps.Clone(r.rules), disabled: maps.Clone(r.disabled), severity: maps.Clone(r.severity)}
}

// Rule returns the rule with the given id, with its default severity.
func (r *Registry) Rule(id string) (Rule, bool) {
	rule, ok := r.rules[id]
	return rule, ok
}

// Rules returns every rule, sorted by id.
func (r *Registry) Rules() []Rule {
	out := slices.Collect(maps.Values(r.rules))
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// OnByDefault reports whether rule id is known and enabled in a new
// registry (it is not marked Off).
func (r *Registry) OnByDefault(id string) bool {
	rule, ok := r.rules[id]
	return ok && !rule.Off
}

// Filter returns a registry holding only the rules keep accepts, with
// r's overrides. Findings of the rules left out are dropped by Grade.
func (r *Registry) Filter(keep func(Rule) bool) *Registry {
	out := r.Clone()
	maps.DeleteFunc(out.rules, func(_ string, rule Rule) bool { return !keep(rule) })
	return out
}

// Disable turns rule id off: Grade drops its findings.
func (r *Registry) Disable(id string) error {
	if _, ok := r.rules[id]; !ok {
		return fmt.Errorf("disabling rule %q: no such rule", id)
	}
	r.disabled[id] = true
	return nil
}

// Enable turns rule id back on.
func (r *Registry) Enable(id string) error {
	if _, ok := r.rules[id]; !ok {
		return fmt.Errorf("enabling rule %q: no such rule", id)
	}
	delete(r.disabled, id)
	return nil
}

// SetSeverity re-grades rule id.
func (r *Registry) SetSeverity(id string, s Severity) error {
	if _, ok := r.rules[id]; !ok {
		return fmt.Errorf("grading rule %q: no such rule", id)
	}
	if _, err := ParseSeverity(string(s)); err != nil {
		return fmt.Errorf("grading rule %q: %w", id, err)
	}
	r.severity[id] = s
	return nil
}

// Enabled reports whether rule id is known and not disabled. A nil
// registry enables every rule.
func (r *Registry) Enabled(id string) bool {
	if r == nil {
		return true
	}
	_, ok := r.rules[id]
	return ok && !r.disabled[id]
}

// Severity returns rule id's effective severity: its re-grade, else its
// default; "" for an unknown id.
func (r *Registry) Severity(id string) Severity {
	if s, ok := r.severity[id]; ok {
		return s
	}
	return r.rules[id].Severity
}

// Grade gives f its rule's effective severity and reports whether f is
// kept: the findings of a disabled or unknown rule are not. A nil
// registry keeps f as it is.
func (r *Registry) Grade(f Finding) (Finding, bool) {
	if r == nil {
		return f, true
	}
	if !r.Enabled(f.Rule) {
		return f, false
	}
	f.Severity = r.Severity(f.Rule)
	return f, true
}
