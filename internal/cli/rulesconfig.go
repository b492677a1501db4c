package cli

import (
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// readRules loads the configuration and returns the rule registry that
// grades the findings of a command that shows them: every rule, disabled
// and re-graded by the [rules] tables, the user's file first, then the
// working directory's.
func readRules(getenv func(string) string) (*finding.Registry, error) {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return nil, err
	}
	reg := rules.Default()
	for _, t := range cfg.rules {
		if err := t.rules.Apply(reg); err != nil {
			return nil, usagef("%s: %v", t.file, err)
		}
	}
	return reg, nil
}
