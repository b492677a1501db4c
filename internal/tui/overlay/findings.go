package overlay

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/termtext"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// findRow is one row of the findings overlay: a rule's header (its
// severity, id, count and summary) or one of its findings.
type findRow struct {
	rule   string
	header bool
	n      int // header: the rule's findings
	f      finding.Finding
}

// findCounts are the findings overlay's title: findings by severity
// rank (sevRank), and rules.
type findCounts struct {
	sev   [4]int
	rules int
}

// sevRank orders severities, most severe first.
func sevRank(s finding.Severity) int {
	switch s {
	case finding.Error:
		return 0
	case finding.Warning:
		return 1
	case finding.Info:
		return 2
	}
	return 3
}

// setFindings groups the findings by rule, most severe rules first, and
// keeps the selection on the same row.
func (m Model) setFindings(d ui.Data) Model {
	if m.data.Snap == d.Snap && m.finds != nil {
		return m
	}
	var sel findRow
	if m.cur.sel < len(m.finds) {
		sel = m.finds[m.cur.sel]
	}
	byRule := map[string][]finding.Finding{}
	for f := range d.Snap.Findings.All() {
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	ids := make([]string, 0, len(byRule))
	for id := range byRule {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(cmp.Compare(sevRank(byRule[a][0].Severity), sevRank(byRule[b][0].Severity)), strings.Compare(a, b))
	})
	rows := make([]findRow, 0, d.Snap.Findings.Len()+len(ids))
	for _, id := range ids {
		fs := byRule[id]
		rows = append(rows, findRow{rule: id, header: true, n: len(fs), f: fs[0]})
		for _, f := range fs {
			rows = append(rows, findRow{rule: id, f: f})
		}
	}
	m.finds = rows
	m.findCounts = findCounts{rules: len(ids)}
	for _, id := range ids {
		m.findCounts.sev[sevRank(byRule[id][0].Severity)] += len(byRule[id])
	}
	if sel.rule != "" {
		if i := slices.IndexFunc(rows, func(r findRow) bool { return r.header == sel.header && r.f == sel.f }); i >= 0 {
			m.cur.sel = i
		}
	}
	return m
}

func (m Model) findingsTitle() string {
	sev, rules := m.findCounts.sev, m.findCounts.rules
	total := sev[0] + sev[1] + sev[2] + sev[3]
	t := m.th.Title.Render("Findings") + " " + m.th.Dim.Render(fmt.Sprintf("%d by %d rules", total, rules))
	for i, s := range []string{"error", "warning", "info"} {
		t += m.th.Dim.Render(" · ") + m.th.Severity(s).Render(fmt.Sprintf("%s %d", s, sev[i]))
	}
	return t
}

func (m Model) findingCells(i int) []cell {
	r := &m.finds[i]
	if r.header {
		sum := ""
		if rule, ok := m.reg.Rule(r.rule); ok {
			sum = termtext.Escape(rule.Summary)
		}
		return []cell{
			{s: ui.Cell(string(r.f.Severity), 7), w: 7, st: styled(m.th.Severity(string(r.f.Severity)))},
			{s: ui.Cell(r.rule, 32), w: 32, st: styled(m.th.Title)},
			{s: strconv.Itoa(r.n), w: 5},
			{s: sum, st: styled(m.th.Dim)},
		}
	}
	call := "-"
	if r.f.Call >= 0 {
		call = "call " + strconv.Itoa(r.f.Call)
	}
	line := "-"
	if r.f.Line > 0 {
		line = "line " + strconv.Itoa(r.f.Line)
	}
	seq := "session"
	if r.f.Seq != 0 {
		seq = "#" + strconv.FormatUint(r.f.Seq, 10)
	}
	return []cell{
		{s: "", w: 7},
		{s: seq, w: 8, st: styled(m.th.Dim)},
		{s: call, w: 10},
		{s: line, w: 10, st: styled(m.th.Dim)},
		{s: ui.Cell(r.f.Message, m.w)},
	}
}

// findingDetail shows the selected row's rule: id, severity, category and
// spec, then its summary and help text, wrapped.
func (m Model) findingDetail() []string {
	r := &m.finds[m.cur.sel]
	rule, ok := m.reg.Rule(r.rule)
	sev := string(m.reg.Severity(r.rule))
	if sev == "" {
		sev = string(r.f.Severity)
	}
	first := m.th.Title.Render(ui.Cell(r.rule, m.w)) + " " + m.th.Severity(sev).Render(ui.Cell(sev, 8))
	if !ok {
		return []string{first, m.th.Dim.Render("not a rule of the registry")}
	}
	first += m.th.Dim.Render(" · " + ui.Cell(string(rule.Category), 16) + " · " + ui.Cell(rule.Spec, m.w))
	text := strings.TrimSuffix(termtext.Escape(rule.Summary), ".") + ". " + termtext.Escape(rule.Help)
	lines := strings.Split(ansi.Wrap(text, max(m.w, 1), ""), "\n")
	if n := m.detail() - 1; len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ui.Pad(lines[n-1], max(m.w-1, 0)) + "…"
	}
	return append([]string{first}, lines...)
}

// findingJump jumps to the finding's call and frame (to the first finding
// of a rule from its header); a session-wide finding has neither.
func (m Model) findingJump() tea.Cmd {
	f := m.finds[m.cur.sel].f
	switch {
	case f.Call >= 0:
		return send(ui.JumpMsg{Call: f.Call, Seq: f.Seq})
	case f.Seq != 0:
		return send(ui.JumpMsg{Call: -1, Seq: f.Seq})
	}
	return send(ui.StatusMsg{Text: "a session-wide finding has no frame to jump to"})
}
