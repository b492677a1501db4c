package cli

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/spf13/cobra"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// ruleRow is one rule as the rules command shows it: its metadata, its
// default severity, and what the [rules] table made of it.
type ruleRow struct {
	ID              string           `json:"id"`
	Category        finding.Category `json:"category"`
	DefaultSeverity finding.Severity `json:"default_severity"`
	// Severity is the effective severity: the [rules] table's re-grade,
	// else the default.
	Severity finding.Severity `json:"severity"`
	Enabled  bool             `json:"enabled"`
	// OnByDefault is false for an opt-in rule, which a [rules] enable
	// (or check --rule) turns on.
	OnByDefault bool   `json:"on_by_default"`
	Summary     string `json:"summary"`
	Help        string `json:"help"`
	Spec        string `json:"spec"`
}

func newRulesCmd(fac *Factory) *cobra.Command {
	io := fac.IOStreams
	var asJSON, wide bool
	var category string
	cmd := &cobra.Command{
		Use:   "rules [--json] [--category C] [RULE...]",
		Short: "List the rules that raise findings, with their metadata",
		Long: `Rules lists every rule mcptrail raises findings for, one a line: its id,
category, the severity it has after the [rules] table of .mcptrail.toml, its
default severity, whether it is enabled, whether it is on by default (an
opt-in rule is off until [rules] enables it), a summary and the spec section
it enforces (cut with "…" or left out to fit the terminal, 100 columns off
one, unless --wide). Given RULE ids it
prints each one whole: the spec section it enforces and its help paragraph
too. --json writes every field of every listed rule as a JSON array.

.mcptrail.toml disables and re-grades rules for every command that shows
findings (export, demo):

  [rules]
  disable = ["cancel-unknown-request"]
  severity = { late-result = "error" }

docs/rules.md lists the same rules.`,
		RunE: func(_ *cobra.Command, args []string) error {
			reg, err := fac.Rules()
			if err != nil {
				return err
			}
			rows, err := ruleRows(reg, finding.Category(category), args)
			if err != nil {
				return err
			}
			if asJSON {
				b, err := json.Marshal(rows)
				if err != nil {
					return fmt.Errorf("encoding rules: %w", err)
				}
				return writeJSON(io.Out, append(b, '\n'))
			}
			if len(args) > 0 {
				return writeRuleDetails(io, rows)
			}
			return writeRuleTable(io, rows, wide)
		},
	}
	addWideFlag(cmd.Flags(), &wide)
	cmd.Flags().StringVar(&category, "category", "", "list only the rules of category `C` ("+categoryList()+")")
	addOutputFlags(cmd, fac.IOStreams, outputSpec{Formats: textJSON(), JSON: &asJSON, JSONHelp: "write the rules as a JSON array instead of a table"})
	return cmd
}

// ruleRows returns the rows of reg's rules, sorted by id: those of
// category (all when ""), or those named by ids, in that order.
func ruleRows(reg *finding.Registry, category finding.Category, ids []string) ([]ruleRow, error) {
	if category != "" && !knownCategory(category) {
		return nil, usagef("unknown category %q (want one of %v)", category, finding.Categories())
	}
	rules := reg.Rules()
	if len(ids) > 0 {
		rules = rules[:0:0]
		for _, id := range ids {
			r, ok := reg.Rule(id)
			if !ok {
				return nil, unknownRule(reg, id)
			}
			rules = append(rules, r)
		}
	}
	rows := make([]ruleRow, 0, len(rules))
	for _, r := range rules {
		if category != "" && r.Category != category {
			continue
		}
		rows = append(rows, ruleRow{
			ID: r.ID, Category: r.Category, DefaultSeverity: r.Severity, Severity: reg.Severity(r.ID),
			Enabled: reg.Enabled(r.ID), OnByDefault: reg.OnByDefault(r.ID), Summary: r.Summary, Help: r.Help, Spec: r.Spec,
		})
	}
	return rows, nil
}

func knownCategory(c finding.Category) bool {
	for _, k := range finding.Categories() {
		if k == c {
			return true
		}
	}
	return false
}

// onOff renders Enabled for the table.
func onOff(enabled bool) string {
	if enabled {
		return "on"
	}
	return "off"
}

func writeRuleTable(io *IOStreams, rows []ruleRow, wide bool) error {
	// The spec section goes first when the terminal is narrow (RULE's
	// details and --json always have it).
	t := &termtable.Table{Color: io.colorOn(), Columns: []termtable.Column{
		{Header: "ID"},
		{Header: "CATEGORY", Drop: 2},
		{Header: "SEVERITY"},
		{Header: "DEFAULT", Drop: 3},
		{Header: "ENABLED", Drop: 1},
		{Header: "BY DEFAULT", Drop: 4},
		{Header: "SUMMARY", Cut: true, Min: 40},
		{Header: "SPEC", Cut: true, Min: 20, Drop: 5},
	}}
	for _, r := range rows {
		enabled := termtable.Cell{Text: onOff(r.Enabled)}
		if !r.Enabled {
			enabled.Style = termtable.Faint
		}
		t.Add(termtable.Cell{Text: r.ID}, termtable.Cell{Text: string(r.Category)},
			termtable.Cell{Text: string(r.Severity), Style: termtable.Severity(string(r.Severity))},
			termtable.Cell{Text: string(r.DefaultSeverity)}, enabled, termtable.Cell{Text: onOff(r.OnByDefault)},
			termtable.Cell{Text: r.Summary}, termtable.Cell{Text: r.Spec})
	}
	return t.Render(io.Out, io.tableWidth(wide))
}

// writeRuleDetails prints each rule as a block: its fields, then its help.
func writeRuleDetails(io *IOStreams, rows []ruleRow) error {
	for i, r := range rows {
		if i > 0 {
			fmt.Fprintln(io.Out)
		}
		fmt.Fprintf(io.Out, "%s\n  category: %s\n  severity: %s (default %s)\n  enabled:  %s (%s by default)\n  spec:     %s\n  summary:  %s\n\n  %s\n",
			termtext.Escape(r.ID), termtext.Escape(string(r.Category)), termtext.Escape(string(r.Severity)),
			termtext.Escape(string(r.DefaultSeverity)), onOff(r.Enabled), onOff(r.OnByDefault), termtext.Escape(r.Spec),
			termtext.Escape(r.Summary), termtext.Escape(r.Help))
	}
	return nil
}

// categoryList names every category, for help texts.
func categoryList() string {
	names := make([]string, 0, len(finding.Categories()))
	for _, c := range finding.Categories() {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
