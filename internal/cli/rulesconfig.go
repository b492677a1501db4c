package cli

import (
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
)

// readRules loads the configuration file and returns the rule registry
// that grades the findings of a command that shows them: every rule,
// disabled and re-graded by the [rules] table.
func readRules() (*finding.Registry, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, err
	}
	return configuredRules(&cfg.Rules)
}

// configuredRules applies a [rules] table to the default registry. A
// mistake in it is a usage error naming the file and the key.
func configuredRules(cfg *rules.Config) (*finding.Registry, error) {
	reg := rules.Default()
	if err := cfg.Apply(reg); err != nil {
		return nil, usagef("%s: %v", configFile, err)
	}
	return reg, nil
}
