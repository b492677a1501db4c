package rules

import (
	"fmt"
	"sort"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// Config is the [rules] table of .mcptrail.toml:
//
//	[rules]
//	enable = ["approval-missing"]
//	disable = ["cancel-unknown-request"]
//	severity = { late-result = "error" }
//
// The zero value changes nothing.
type Config struct {
	// Enable lists the ids of opt-in rules (off by default) to turn on.
	Enable []string `toml:"enable"`
	// Disable lists the ids of rules whose findings are not reported.
	Disable []string `toml:"disable"`
	// Severity re-grades rules: rule id to error, warning or info.
	Severity map[string]string `toml:"severity"`
}

// Apply disables and re-grades the rules of r as c says. An unknown rule
// id or severity is an error naming the key (rules.enable, rules.disable,
// rules.severity.ID).
func (c *Config) Apply(r *finding.Registry) error {
	for _, id := range c.Enable {
		if err := r.Enable(id); err != nil {
			return fmt.Errorf("rules.enable: unknown rule %q%s", id, listHint)
		}
	}
	for _, id := range c.Disable {
		if _, ok := r.Rule(id); !ok {
			return fmt.Errorf("rules.disable: unknown rule %q%s", id, listHint)
		}
		if err := r.Disable(id); err != nil {
			return fmt.Errorf("rules.disable: %w", err)
		}
	}
	ids := make([]string, 0, len(c.Severity))
	for id := range c.Severity {
		ids = append(ids, id)
	}
	sort.Strings(ids) // the first error is the same on every run
	for _, id := range ids {
		if _, ok := r.Rule(id); !ok {
			return fmt.Errorf("rules.severity.%s: unknown rule %q%s", id, id, listHint)
		}
		s, err := finding.ParseSeverity(c.Severity[id])
		if err != nil {
			return fmt.Errorf("rules.severity.%s: %w", id, err)
		}
		if err := r.SetSeverity(id, s); err != nil {
			return fmt.Errorf("rules.severity.%s: %w", id, err)
		}
	}
	return nil
}

// listHint tells where the rule ids are listed.
const listHint = " (mcptrail rules lists them)"
