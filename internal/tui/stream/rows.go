package stream

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/units"
)

// rowLine draws row i. The selected row is drawn without inner colours,
// in the Selected style, so its background runs the whole width.
func (m Model) rowLine(i int, lay *layout) string {
	r := m.ix.rows[i]
	sel := i == m.sel
	var s string
	if r.kind == rowLine {
		s = m.lineCells(&m.data.Lines[r.idx], lay, sel)
	} else {
		s = m.callCells(r, lay, sel)
	}
	if sel {
		return m.th.Selected.Render(ui.Pad(s, m.w))
	}
	return s
}

// callCells draws a call, an operation, a round or a nested request.
func (m Model) callCells(r row, lay *layout, plain bool) string {
	snap := m.data.Snap
	c := snap.Calls.At(int(r.idx))
	v := callView{status: c.Status, late: c.Late, durMS: c.DurationMS, done: c.ResponseSeq != 0,
		method: c.Method, target: c.Target, marker: " ", err: c.Error, resp: c.ResponseSeq}
	switch {
	case r.kind == rowCall && c.Operation >= 0 && c.Operation < snap.Operations.Len():
		op := snap.Operations.At(c.Operation)
		v.status, v.durMS, v.done = op.Status, op.DurationMS, !op.End.IsZero()
		v.target = rounds(clip(c.Target, m.w), len(op.Rounds), lay[colTarget])
		v.marker = "▸"
		if n := len(op.Rounds); n > 0 && op.Rounds[n-1].Call < snap.Calls.Len() {
			last := snap.Calls.At(op.Rounds[n-1].Call) // the final answer's
			v.err, v.resp = last.Error, last.ResponseSeq
		}
		if m.expanded[r.idx] {
			v.marker = "▾"
		}
		for _, rd := range op.Rounds {
			v.findings += len(m.fx.rules[int32(rd.Call)])
		}
	case r.kind == rowRound:
		v.method = fmt.Sprintf("└ round %d", c.Round)
		v.findings = len(m.fx.rules[r.idx])
	case r.kind == rowChild:
		v.method = "└ " + clip(c.Method, m.w)
		v.findings = len(m.fx.rules[r.idx])
	default:
		v.findings = len(m.fx.rules[r.idx])
	}
	cells := make([]string, 0, numColumns+1)
	cells = append(cells, v.marker)
	for col, w := range lay {
		if w > 0 {
			cells = append(cells, m.callCell(column(col), w, &c, &v, r, plain))
		}
	}
	return strings.Join(cells, " ")
}

// rounds is an operation's target with its rounds, "deploy ×3 rounds",
// or "deploy ×3" when the name would be cut: the name is what a person
// reads.
func rounds(target string, n, w int) string {
	long := fmt.Sprintf("%s ×%d rounds", target, n)
	if ui.Width(ui.Cell(long, w+1)) <= w {
		return long
	}
	return fmt.Sprintf("%s ×%d", target, n)
}

// preview is what came back, as the store keeps it: a JSON-RPC
// error's code and message; "" for a result (its content is in the
// inspector).
func preview(e *store.CallError) string {
	if e == nil {
		return ""
	}
	return fmt.Sprintf("%d %s", e.Code, clip(e.Message, 512))
}

// callView is what a call row shows beyond the call itself (an operation
// shows its own status and duration).
type callView struct {
	status         string
	late, done     bool
	durMS          float64
	method, target string
	marker         string
	findings       int
	err            *store.CallError // what the preview shows
	resp           uint64           // the answer's seq, for its result text
}

// callCell draws one column of a call row.
func (m Model) callCell(col column, w int, c *store.Call, v *callView, r row, plain bool) string {
	th := m.th
	switch col {
	case colTime:
		return cell(th.Dim, units.Offset(c.Start.Sub(m.data.Snap.Session.Start)), w, plain)
	case colDir:
		return cell(th.Dim, string(c.Dir), w, plain)
	case colID:
		return cell(th.Dim, c.ID.Raw(), w, plain)
	case colMethod:
		return cell(lipgloss.NewStyle(), v.method, w, true)
	case colTarget:
		return cell(lipgloss.NewStyle(), v.target, w, true)
	case colStatus:
		return m.statusCell(v, w, plain)
	case colDuration:
		if !v.done {
			return strings.Repeat(" ", w)
		}
		return cell(th.Dim, units.Millis(v.durMS), w, plain)
	case colElicit:
		return m.elicitCell(r, w, plain)
	case colFindings:
		if v.findings == 0 {
			return strings.Repeat(" ", w)
		}
		return cell(th.Warn, fmt.Sprintf("!%d", v.findings), w, plain)
	case colPreview:
		return cell(th.Dim, m.previewOf(v.resp, preview(v.err)), w, plain)
	}
	return strings.Repeat(" ", w)
}

// statusCell draws a status, coloured, with "late" when the answer came
// after the cancellation.
func (m Model) statusCell(v *callView, w int, plain bool) string {
	if !v.late {
		return cell(m.th.Status(v.status), v.status, w, plain)
	}
	s := ui.Cell(v.status, w)
	late := ui.Cell(" late", w-ui.Width(s))
	pad := strings.Repeat(" ", max(w-ui.Width(s)-ui.Width(late), 0))
	if plain {
		return s + late + pad
	}
	return m.th.Status(v.status).Render(s) + m.th.Status("late").Render(late) + pad
}

// elicitCell draws the outcomes of the row's ledger rows, each coloured,
// the same outcome counted once ("accept×2 decline").
func (m Model) elicitCell(r row, w int, plain bool) string {
	acts := m.fx.actions(&m.data.Snap.Ledger, r.idx, r.kind != rowCall, nil)
	if len(acts) == 0 {
		return strings.Repeat(" ", w)
	}
	var b strings.Builder
	used := 0
	for i, a := range acts {
		if used >= w || slices.Contains(acts[:i], a) {
			continue
		}
		if used > 0 {
			b.WriteByte(' ')
			used++
		}
		text := a
		if n := count(acts, a); n > 1 {
			text = fmt.Sprintf("%s×%d", a, n)
		}
		s := ui.Cell(text, w-used)
		used += ui.Width(s)
		if plain {
			b.WriteString(s)
		} else {
			b.WriteString(m.th.Action(a).Render(s))
		}
	}
	return ui.Pad(b.String(), w)
}

// count returns how many of vs are v.
func count(vs []string, v string) int {
	n := 0
	for _, x := range vs {
		if x == v {
			n++
		}
	}
	return n
}

// lineCells draws a notification, stderr line or note: its time, its
// direction, then its text across the other columns, dimmed.
func (m Model) lineCells(l *ui.Line, lay *layout, plain bool) string {
	var text string
	switch l.Kind {
	case ui.LineNotification:
		text = clip(l.Method, m.w)
	case ui.LineStderr:
		text = "stderr: " + clip(l.Text, m.w)
	default:
		text = "note " + clip(l.Note, m.w) + ": " + clip(l.Text, m.w)
	}
	used, cells := 1, []string{" "}
	if w := lay[colTime]; w > 0 {
		cells = append(cells, cell(m.th.Dim, units.Offset(l.Time.Sub(m.data.Snap.Session.Start)), w, plain))
		used += w + 1
	}
	if w := lay[colDir]; w > 0 {
		cells = append(cells, cell(m.th.Dim, string(l.Dir), w, plain))
		used += w + 1
	}
	cells = append(cells, cell(m.th.Dim, text, max(m.w-used-1, 0), plain))
	return strings.Join(cells, " ")
}

// clip cuts s, untrusted, to what w cells can show of it (ui.Cell looks
// at no more), so that joining it to other text never copies a huge s. It
// may cut a rune, which ui.Cell then shows escaped past the cut.
func clip(s string, w int) string {
	if n := 4*max(w, 0) + 8; len(s) > n {
		return s[:n]
	}
	return s
}
