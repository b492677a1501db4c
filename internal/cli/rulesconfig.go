package cli

import (
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// readRules returns the rule registry that grades the findings of a
// command that shows them: every rule, disabled and re-graded by cfg's
// [rules] tables, the user's file first, then the working directory's.
// Factory.Rules is its one caller.
func readRules(cfg *config) (*finding.Registry, error) {
	reg := rules.Default()
	for _, t := range cfg.rules {
		if err := t.rules.Apply(reg); err != nil {
			return nil, usagef("%s: %v", t.file, err)
		}
	}
	return reg, nil
}
