package cli

import (
	"fmt"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// narrowRules disables the rules of reg that --rule (only), --skip and
// --category leave out. An unknown id or category is a usage error.
func narrowRules(reg *finding.Registry, only, skip, categories []string) error {
	for _, c := range categories {
		if !knownCategory(finding.Category(c)) {
			return usagef("--category: unknown category %q (want one of %v)", c, finding.Categories())
		}
	}
	for _, ids := range [][]string{only, skip} {
		for _, id := range ids {
			if _, ok := reg.Rule(id); !ok {
				return unknownRule(reg, id)
			}
		}
	}
	for _, r := range reg.Rules() {
		keep := (len(only) == 0 || contains(only, r.ID)) && !contains(skip, r.ID) &&
			(len(categories) == 0 || contains(categories, string(r.Category)))
		if !keep {
			_ = reg.Disable(r.ID) // r is in reg
		}
	}
	for _, id := range only {
		if !contains(skip, id) {
			_ = reg.Enable(id) // named: on even when off by default (approval-missing)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// unknownRule is the usage error for a rule id reg lacks, with "did you
// mean" when some ids are close to it.
func unknownRule(reg *finding.Registry, id string) error {
	var close []string
	for _, r := range reg.Rules() {
		if editDistance(id, r.ID) <= 3 || (len(id) >= 4 && strings.Contains(r.ID, id)) {
			close = append(close, fmt.Sprintf("%q", r.ID))
		}
	}
	if len(close) == 0 || len(close) > 5 {
		return usagef("unknown rule %q (mcptrail rules lists them)", id)
	}
	return usagef("unknown rule %q — did you mean %s? (mcptrail rules lists them)", id, strings.Join(close, " or "))
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// explainRule prints the rule id's details and help (check --explain).
func explainRule(fac *Factory, id string, args []string) error {
	ios := fac.IOStreams
	if len(args) > 0 {
		return usagef("check --explain takes no captures, got %d arguments", len(args))
	}
	reg, err := fac.Rules()
	if err != nil {
		return err
	}
	if _, ok := reg.Rule(id); !ok {
		return unknownRule(reg, id)
	}
	rows, err := ruleRows(reg, "", []string{id})
	if err != nil {
		return err
	}
	return writeRuleDetails(ios, rows)
}
