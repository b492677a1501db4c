package rules

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcptrail/mcptrail/internal/finding"
)

// WriteMarkdown writes the rules of r as the docs/rules.md page: a table
// by category, then each rule's help. A test keeps the page in step with
// Default.
func WriteMarkdown(w io.Writer, r *finding.Registry) error {
	var b strings.Builder
	b.WriteString(`# Rules

<!-- Generated from internal/rules by ` + "`go test ./internal/rules -update`" + `; do not edit. -->

Every finding mcptrail reports is raised by one of these rules. ` + "`mcptrail rules`" + ` lists them
with the severity they have after the ` + "`[rules]`" + ` table of ` + "`.mcptrail.toml`" + `, and
` + "`mcptrail rules --json`" + ` writes every field:

` + "```toml" + `
[rules]
enable = ["approval-missing"]             # an opt-in rule (off by default) turned on
disable = ["cancel-unknown-request"]      # its findings are not reported
severity = { late-result = "error" }      # error, warning or info
` + "```" + `

An unknown rule id or severity there is an error that names the key. The table applies to
every command that shows findings (` + "`export`, `demo`" + `).

"MCP 2026-07-28 §6 rule N" is rule N of section 6 ("Normative rules decidable from the wire
alone") of the protocol brief for MCP 2026-07-28; other section numbers are that brief's too.

`)
	for _, c := range finding.Categories() {
		rules := r.Filter(func(rule finding.Rule) bool { return rule.Category == c }).Rules()
		if len(rules) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n| id | severity | summary | spec |\n|---|---|---|---|\n", c)
		for _, rule := range rules {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s | %s |\n", rule.ID, rule.ID, rule.Severity, onByDefault(rule), cell(rule.Summary), cell(rule.Spec))
		}
		b.WriteString("\n")
		for _, rule := range rules {
			fmt.Fprintf(&b, "### %s\n\n%s\n\n", rule.ID, rule.Help)
		}
	}
	_, err := io.WriteString(w, strings.TrimSuffix(b.String(), "\n"))
	if err != nil {
		return fmt.Errorf("writing rules page: %w", err)
	}
	return nil
}

// onByDefault says whether rule is on in a new registry.
func onByDefault(rule finding.Rule) string {
	if rule.Off {
		return "off (opt-in)"
	}
	return "on"
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
