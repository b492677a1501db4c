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

// Findings lists the session's findings grouped by rule, most severe
// first.
const Findings Kind = "findings"

func newFindings(th *ui.Theme, d ui.Data, opts *Options) Overlay {
	return newList(th, Findings, d, opts, findingRows{reg: opts.rules()})
}

// findingRows are the findings overlay's rows: the grouping, and the
// registry each rule's summary, help, spec and severity come from.
type findingRows struct {
	reg *finding.Registry
	findState
}

func (r findingRows) count(*frame) int { return r.rows }

func (findingRows) empty() string { return "no findings" }

func (findingRows) detailHeight(h int) int {
	if h < 20 {
		return 2
	}
	return 5
}

// findRow is one row of the findings overlay: a rule's header (its
// severity, id, count and summary) or one of its findings.
type findRow struct {
	rule   string
	header bool
	n      int             // header: the rule's findings
	f      finding.Finding // the finding; a header's first
}

// findState is the findings overlay's grouping, kept from one Data to the
// next so that a newer one costs the findings that changed: all holds the
// findings in the snapshot's order, each group the indices of its rule's.
type findState struct {
	all    growing[finding.Finding]
	groups []findGroup // most severe first, then by rule id
	rows   int
	sev    [4]int // findings by sevRank
}

// findGroup is one rule's findings.
type findGroup struct {
	rule string
	sev  finding.Severity
	idx  growing[int32]
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

// set brings the grouping up to date with d: the findings that are as
// before are kept, the rest regrouped, and the selection stays on the
// same row.
func (fr findingRows) set(f *frame, d ui.Data) findingRows {
	if f.data.Snap == d.Snap && f.data.Snap != nil {
		return fr
	}
	var sel findRow
	if f.cur.sel < fr.rows {
		sel = fr.rowAt(f.cur.sel)
	}
	st := fr.findState
	st.groups = slices.Clone(st.groups)
	j, diverged := 0, false
	for f := range d.Snap.Findings.All() {
		if !diverged && j < len(st.all.s) && st.all.s[j] == f {
			j++
			continue
		}
		if !diverged && j < len(st.all.s) { // a finding changed: regroup from it on
			st.truncate(j)
		}
		diverged = true
		st.add(f)
		j++
	}
	if !diverged && j < len(st.all.s) {
		st.truncate(j)
	}
	st.tidy()
	fr.findState = st
	if sel.rule != "" {
		f.cur.sel = st.rowIndex(sel, f.cur.sel)
	}
	return fr
}

// truncate drops the findings from index n on.
func (st *findState) truncate(n int) {
	st.all = st.all.truncate(n)
	for i := range st.groups {
		g := &st.groups[i]
		k, _ := slices.BinarySearch(g.idx.s, int32(n))
		g.idx = g.idx.truncate(k)
	}
}

// add appends f to its rule's group, making the group if it is new.
func (st *findState) add(f finding.Finding) {
	st.all = st.all.append(f)
	i := slices.IndexFunc(st.groups, func(g findGroup) bool { return g.rule == f.Rule })
	if i < 0 {
		i = len(st.groups)
		st.groups = append(st.groups, findGroup{rule: f.Rule, sev: f.Severity})
	}
	st.groups[i].idx = st.groups[i].idx.append(int32(len(st.all.s) - 1))
}

// tidy drops empty groups, orders the groups and counts rows and
// severities.
func (st *findState) tidy() {
	st.groups = slices.DeleteFunc(st.groups, func(g findGroup) bool { return len(g.idx.s) == 0 })
	slices.SortStableFunc(st.groups, func(a, b findGroup) int {
		return cmp.Or(cmp.Compare(sevRank(a.sev), sevRank(b.sev)), strings.Compare(a.rule, b.rule))
	})
	st.rows, st.sev = 0, [4]int{}
	for _, g := range st.groups {
		st.rows += 1 + len(g.idx.s)
		st.sev[sevRank(g.sev)] += len(g.idx.s)
	}
}

// rowAt returns row i (< rows): the groups are few, so this walks them.
func (st findState) rowAt(i int) findRow {
	for _, g := range st.groups {
		n := len(g.idx.s)
		switch {
		case i == 0:
			return findRow{rule: g.rule, header: true, n: n, f: st.all.s[g.idx.s[0]]}
		case i <= n:
			return findRow{rule: g.rule, f: st.all.s[g.idx.s[i-1]]}
		}
		i -= 1 + n
	}
	return findRow{}
}

// rowIndex returns the index of the row showing what r showed, or sel
// when it is gone.
func (st findState) rowIndex(r findRow, sel int) int {
	base := 0
	for _, g := range st.groups {
		if g.rule == r.rule {
			if r.header {
				return base
			}
			for k, ix := range g.idx.s {
				if st.all.s[ix] == r.f {
					return base + 1 + k
				}
			}
		}
		base += 1 + len(g.idx.s)
	}
	return sel
}

func (fr findingRows) title(f *frame) string {
	sev, rules := fr.sev, len(fr.groups)
	total := sev[0] + sev[1] + sev[2] + sev[3]
	t := f.th.Title.Render("Findings") + " " + f.th.Dim.Render(fmt.Sprintf("%d by %d rules", total, rules))
	for i, s := range []string{"error", "warning", "info"} {
		t += f.th.Dim.Render(" · ") + f.th.Severity(s).Render(fmt.Sprintf("%s %d", s, sev[i]))
	}
	return t
}

func (fr findingRows) cells(f *frame, i int) []cell {
	row := fr.rowAt(i)
	r := &row
	if r.header {
		sum := ""
		if rule, ok := fr.reg.Rule(r.rule); ok {
			sum = termtext.Escape(rule.Summary)
		}
		return []cell{
			{s: ui.Cell(string(r.f.Severity), 7), w: 7, st: styled(f.th.Severity(string(r.f.Severity)))},
			{s: ui.Cell(r.rule, 32), w: 32, st: styled(f.th.Title)},
			{s: strconv.Itoa(r.n), w: 5},
			{s: sum, st: styled(f.th.Dim)},
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
	if f.w < 80 { // narrow: the message first
		return []cell{{s: "", w: 1}, {s: seq, w: 7, st: styled(f.th.Dim)}, {s: call, w: 9}, {s: ui.Cell(r.f.Message, f.w)}}
	}
	return []cell{
		{s: "", w: 7},
		{s: seq, w: 8, st: styled(f.th.Dim)},
		{s: call, w: 10},
		{s: line, w: 10, st: styled(f.th.Dim)},
		{s: ui.Cell(r.f.Message, f.w)},
	}
}

// detail shows the selected row's rule in n lines: id, severity,
// category and spec, then its summary and help text, wrapped.
func (fr findingRows) detail(f *frame, n int) []string {
	row := fr.rowAt(f.cur.sel)
	r := &row
	rule, ok := fr.reg.Rule(r.rule)
	sev := string(fr.reg.Severity(r.rule))
	if sev == "" {
		sev = string(r.f.Severity)
	}
	first := f.th.Title.Render(ui.Cell(r.rule, f.w)) + " " + f.th.Severity(sev).Render(ui.Cell(sev, 8))
	if !ok {
		return []string{first, f.th.Dim.Render("not a rule of the registry")}
	}
	first += f.th.Dim.Render(" · " + ui.Cell(string(rule.Category), 16) + " · " + ui.Cell(rule.Spec, f.w))
	text := strings.TrimSuffix(termtext.Escape(rule.Summary), ".") + ". " + termtext.Escape(rule.Help)
	lines := strings.Split(ansi.Wrap(text, max(f.w, 1), ""), "\n")
	if n := n - 1; len(lines) > n {
		lines = lines[:n]
		lines[n-1] = fit(lines[n-1], max(f.w-1, 0)) + "…"
	}
	return append([]string{first}, lines...)
}

// jump jumps to the finding's call and frame (to the first finding of a
// rule from its header); a session-wide finding has neither.
func (fr findingRows) jump(fm *frame) tea.Cmd {
	f := fr.rowAt(fm.cur.sel).f
	switch {
	case f.Call >= 0:
		return send(ui.JumpMsg{Call: f.Call, Seq: f.Seq})
	case f.Seq != 0:
		return send(ui.JumpMsg{Call: -1, Seq: f.Seq})
	}
	return send(ui.StatusMsg{Text: "a session-wide finding has no frame to jump to"})
}
