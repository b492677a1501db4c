package mcpserve

import (
	"fmt"
	"strings"

	"github.com/mcptrail/mcptrail/internal/check"
	"github.com/mcptrail/mcptrail/internal/finding"
)

// checkHead is the check tool's answer but for its items: the session,
// whether it fails a check run (a finding at error), its damage, the
// findings by severity, and the help of every rule it raised.
type checkHead struct {
	SessionID string `json:"session_id"`
	Label     string `json:"label"`
	Failed    bool   `json:"failed"`
	Damage    damage `json:"damage"`
	Error     int    `json:"error"`
	Warning   int    `json:"warning"`
	Info      int    `json:"info"`
	// Rules are the raised rules, in the order they are first raised,
	// with their effective severity.
	Rules []ruleRow `json:"rules"`
}

// ruleRow is a rule as `mcptrail rules --json` writes it.
type ruleRow struct {
	ID              string           `json:"id"`
	Category        finding.Category `json:"category"`
	DefaultSeverity finding.Severity `json:"default_severity"`
	Severity        finding.Severity `json:"severity"`
	Enabled         bool             `json:"enabled"`
	OnByDefault     bool             `json:"on_by_default"`
	Summary         string           `json:"summary"`
	Help            string           `json:"help"`
	Spec            string           `json:"spec"`
}

// findings answers the findings `mcptrail check -T json` reports for the
// session (results[0].items), under the user's [rules].
func (s *Server) findings(raw []byte) (*page, error) {
	var a pageArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	rep, err := s.checkSession(a.Session)
	if err != nil {
		return nil, err
	}
	res := &rep.Results[0]
	items := res.Items
	start, err := cursor(a.Cursor, len(items))
	if err != nil {
		return nil, err
	}
	d := res.Damage
	head := checkHead{SessionID: res.SessionID, Label: res.Label, Failed: rep.Failed(), Rules: []ruleRow{},
		Damage: damage{Torn: d.Torn, TornBytes: d.TornBytes, Corrupt: d.Corrupt}}
	seen := map[string]bool{}
	reg := s.rules()
	for i := range items {
		switch items[i].Severity {
		case finding.Error:
			head.Error++
		case finding.Warning:
			head.Warning++
		default:
			head.Info++
		}
		if id := items[i].Rule; !seen[id] {
			seen[id] = true
			if r, ok := reg.Rule(id); ok {
				head.Rules = append(head.Rules, rowOfRule(reg, r))
			}
		}
	}
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(&head, limit) },
		text: func(limit int) string { return head.text(len(items), limit) },
		list: &list{name: "items", n: len(items),
			item: func(i, limit int) ([]byte, error) { return marshal(&items[i], limit) },
			line: func(i, limit int) string { return itemLine(&items[i], limit) },
		},
		start: start,
	}, nil
}

func (h *checkHead) text(n, limit int) string {
	var b strings.Builder
	verdict := "passes"
	if h.Failed {
		verdict = "fails"
	}
	fmt.Fprintf(&b, "check of session %s: %d findings (%d error, %d warning, %d info); it %s a check run at --fail-on error\n",
		show(h.SessionID, limit), n, h.Error, h.Warning, h.Info, verdict)
	for _, r := range h.Rules {
		fmt.Fprintf(&b, "rule %s (%s, %s): %s\n", show(r.ID, limit), r.Severity, show(r.Spec, limit), show(r.Summary, limit))
	}
	return b.String()
}

func itemLine(it *check.Item, limit int) string {
	s := fmt.Sprintf("%s %s seq %d line %d", it.Severity, show(it.Rule, limit), it.Seq, it.Line)
	if it.Call != "" {
		s += " in " + show(it.Call, limit)
	}
	return s + ": " + show(it.Message, limit)
}

func rowOfRule(reg *finding.Registry, r finding.Rule) ruleRow {
	return ruleRow{ID: r.ID, Category: r.Category, DefaultSeverity: r.Severity, Severity: reg.Severity(r.ID),
		Enabled: reg.Enabled(r.ID), OnByDefault: reg.OnByDefault(r.ID), Summary: r.Summary, Help: r.Help, Spec: r.Spec}
}

// explainArgs name a rule.
type explainArgs struct {
	ID string `json:"id"`
}

// explain answers one rule's metadata and help, as `mcptrail rules ID
// --json` does; an unknown id is an error naming the ids close to it.
func (s *Server) explain(raw []byte) (*page, error) {
	var a explainArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	reg := s.rules()
	r, ok := reg.Rule(a.ID)
	if !ok {
		var close []string
		for _, r := range reg.Rules() {
			if a.ID != "" && (strings.Contains(r.ID, a.ID) || strings.Contains(a.ID, r.ID)) {
				close = append(close, r.ID)
			}
		}
		msg := fmt.Sprintf("unknown rule %q", cut(a.ID, 64))
		if len(close) > 0 && len(close) <= 5 {
			msg += " (did you mean " + strings.Join(close, " or ") + "?)"
		}
		return nil, fmt.Errorf("%s; the check tool's rules and `mcptrail rules` list them", msg)
	}
	row := rowOfRule(reg, r)
	return &page{
		head: func(limit int) ([]byte, error) { return marshal(&row, limit) },
		text: func(limit int) string {
			on := "enabled"
			if !row.Enabled {
				on = "disabled"
			}
			return fmt.Sprintf("%s\n  category: %s\n  severity: %s (default %s), %s\n  spec:     %s\n  summary:  %s\n\n  %s\n",
				show(row.ID, limit), row.Category, row.Severity, row.DefaultSeverity, on, show(row.Spec, limit),
				show(row.Summary, limit), show(row.Help, limit))
		},
		caps: []int{4096, 1024, 256},
	}, nil
}
