package check

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// home is mcptrail's home page, SARIF's tool.driver.informationUri.
const home = "https://github.com/mcptrail/mcptrail"

// rulesDoc is the page that documents every rule, one anchor per id.
const rulesDoc = home + "/blob/main/docs/rules.md"

// ruleTable indexes r.Rules by id and appends, in order of first
// appearance, a bare rule for every item whose rule is not among them, so
// that every writer can name and describe each item's rule.
func ruleTable(r *Report) ([]finding.Rule, map[string]int) {
	rules := append([]finding.Rule(nil), r.Rules...)
	index := make(map[string]int, len(rules))
	for i, ru := range rules {
		index[ru.ID] = i
	}
	for i := range r.Results {
		for _, it := range r.Results[i].Items {
			if _, ok := index[it.Rule]; !ok {
				index[it.Rule] = len(rules)
				rules = append(rules, finding.Rule{ID: it.Rule, Severity: it.Severity, Summary: it.Rule})
			}
		}
	}
	return rules, index
}

// artifactURI is the URI of the capture file named path: a relative
// reference for a relative path (so reports stay portable), a file URI for
// an absolute one, each segment percent-encoded.
func artifactURI(path string) string {
	p := filepath.ToSlash(path)
	u := url.URL{Path: p}
	if filepath.IsAbs(path) {
		u.Scheme = "file"
		if !strings.HasPrefix(p, "/") { // a Windows drive path
			u.Path = "/" + p
		}
	}
	return u.String()
}

// suppressed is how many findings the baseline knew in r.
func suppressed(r *Report) int {
	n := 0
	for i := range r.Results {
		n += r.Results[i].Suppressed
	}
	return n
}
