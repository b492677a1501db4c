package inspector

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/units"
)

// headerRows and footerRows frame the body when the screen is tall enough.
const (
	headerRows = 3
	footerRows = 1
)

// chrome is how many header and footer rows a screen h rows tall shows:
// all of them from 6 rows, the title and the footer from 3, none below.
func chrome(h int) (header, footer int) {
	switch {
	case h >= headerRows+footerRows+2:
		return headerRows, footerRows
	case h >= 3:
		return 1, 1
	}
	return 0, 0
}

// bodyHeight is the number of body rows on screen.
func (m Model) bodyHeight() int {
	hd, ft := chrome(m.h)
	return max(m.h-hd-ft, 0)
}

// View draws the screen in exactly its size: h lines of at most w cells.
func (m Model) View() string {
	if m.h <= 0 {
		return ""
	}
	hd, ft := chrome(m.h)
	rows := make([]string, 0, m.h)
	rows = append(rows, m.header()[:hd]...)
	rows = append(rows, m.body(m.h-hd-ft)...)
	if ft > 0 {
		rows = append(rows, m.footer())
	}
	for i := range rows {
		if ui.Width(rows[i]) > m.w {
			rows[i] = ui.Pad(rows[i], m.w)
		}
	}
	return strings.Join(rows, "\n")
}

// header is the title (method, target, id, status, duration, era, round),
// the operation or nesting line, and the panes.
func (m Model) header() []string {
	c, ok := m.roundCall()
	if !ok {
		title := "inspector: loading…"
		if m.err != "" {
			title = "inspector: " + m.err
		}
		return []string{m.th.Title.Render(ui.Cell(title, m.w)), "", ""}
	}
	var b segs
	b.reset(m.w)
	b.add(m.th.Title, c.Method)
	if c.Target != "" {
		b.add(lipgloss.Style{}, " "+c.Target)
	}
	b.add(m.th.Dim, "  id ")
	b.add(lipgloss.Style{}, c.ID.Raw())
	b.add(lipgloss.Style{}, "  ")
	b.add(m.th.Status(c.Status), statusText(c))
	if c.ResponseSeq != 0 {
		b.add(lipgloss.Style{}, "  "+units.Millis(c.DurationMS))
	}
	b.add(m.th.Dim, "  "+c.Era)
	if n := len(m.plan.rounds); n > 1 || c.Operation >= 0 {
		b.add(m.th.Dim, fmt.Sprintf("  round %d/%d", m.round+1, n))
	}
	return []string{b.String(), m.context(c), m.tabs(c)}
}

// statusText is the call's status, marked late when it was.
func statusText(c store.Call) string {
	if c.Late {
		return c.Status + " (late)"
	}
	return c.Status
}

// context is the header's second line: the operation's wait and tool
// times (and a task's status and polls), or the call a nested request interrupted, or the nested requests.
func (m Model) context(c store.Call) string {
	var b segs
	b.reset(m.w)
	switch {
	case c.Operation >= 0 && c.Operation < m.data.Snap.Operations.Len():
		op := m.data.Snap.Operations.At(c.Operation)
		b.add(m.th.Dim, fmt.Sprintf("operation of %d rounds  ", len(op.Rounds)))
		if op.Task.ID != "" { // ext-tasks: the task's own status beside the operation's
			b.add(m.th.Dim, fmt.Sprintf("task %s, %d polls  ", op.Task.Status, op.Task.Polls))
		}
		b.add(m.th.Status(op.Status), op.Status)
		if op.Status == store.StatusPending { // no total or tool time until it ends
			b.add(m.th.Dim, "  wait "+units.Millis(op.WaitMS))
		} else {
			b.add(m.th.Dim, fmt.Sprintf("  total %s  wait %s  tool %s", units.Millis(op.DurationMS), units.Millis(op.WaitMS), units.Millis(op.ToolMS)))
		}
	case c.Parent >= 0:
		b.add(m.th.Dim, fmt.Sprintf("nested in call #%d (%s): r jumps to it", c.Parent, c.Attribution))
	default:
		b.add(m.th.Dim, fmt.Sprintf("call #%d  %s", c.Index, c.Dir))
	}
	if n := len(m.nestedCalls()); n > 0 {
		b.add(m.th.Dim, fmt.Sprintf("  %d nested legacy requests", n))
	}
	return b.String()
}

// tabs names the panes, the shown one highlighted, and the frame's seq,
// direction, time and size.
func (m Model) tabs(c store.Call) string {
	var b segs
	b.reset(m.w)
	names := []string{fmt.Sprintf(" request #%d ", c.RequestSeq), " response (none) "}
	switch {
	case c.ResponseSeq == 0 && c.Status == store.StatusPending:
		names[1] = " response (none yet) "
	case c.ResponseSeq != 0:
		names[1] = fmt.Sprintf(" response #%d ", c.ResponseSeq)
	}
	if n := len(m.nestedCalls()); n > 0 {
		names = append(names, fmt.Sprintf(" nested (%d) ", n))
	}
	for i, n := range names {
		st := m.th.Dim
		if i == m.pane {
			st = m.th.Selected
		}
		b.add(st, n)
	}
	if f := m.curFrame(); f != nil && f.err == "" {
		b.add(m.th.Dim, fmt.Sprintf("  %s %s  %s", f.dir, m.offset(f.time), size(len(f.raw))))
	}
	return b.String()
}

// footer is the search input, the match count, the body's note, or a hint.
func (m Model) footer() string {
	var b segs
	b.reset(m.w)
	switch {
	case m.search.typing:
		b.add(m.th.Key, "/")
		b.add(lipgloss.Style{}, m.search.input)
		b.add(m.th.Dim, "▏ ")
	case m.search.query != "":
		n := len(m.search.matches)
		at := 0
		if n > 0 {
			at = m.search.at + 1
		}
		b.add(m.th.Key, fmt.Sprintf("%d/%d", at, n))
		b.add(m.th.Dim, " matches of ")
		b.add(lipgloss.Style{}, m.search.query)
		b.add(m.th.Dim, " · n/N next/previous  ")
	default:
		if f := m.curFrame(); f != nil && f.lay != nil && f.lay.t.note != "" {
			b.add(m.th.Warn, f.lay.t.note+"  ")
		}
	}
	return b.String() + ui.Footer(m.th, m.Hints(), b.left)
}

// Hints lists the keys the inspector accepts now for its footer, the
// most useful first, for the pane shown.
func (m Model) Hints() []ui.Hint {
	k := m.keys
	if m.search.typing {
		return []ui.Hint{{Key: "enter", Desc: "search"}, {Key: "esc", Desc: "cancel"}}
	}
	hs := []ui.Hint{ui.HintFor(k.Pair, "pane")}
	if len(m.plan.rounds) > 1 {
		hs = append(hs, ui.Hint{Key: "]/[", Desc: "round"})
	}
	if m.pane == paneNested {
		return append(hs, ui.Hint{Key: "o", Desc: "inspect"}, ui.HintFor(k.Back, "back"))
	}
	return append(hs, ui.HintFor(k.Fold, "fold"), ui.HintFor(k.Search, "search"),
		ui.Hint{Key: "y/Y", Desc: "copy body/path"}, ui.HintFor(k.Back, "back"))
}

// segs builds one screen line from styled pieces of untrusted text, each
// escaped and cut (ui.Cell) to the cells left.
type segs struct {
	sb   strings.Builder
	left int
}

func (b *segs) reset(width int) { b.sb.Reset(); b.left = width }

// add appends text in style st, escaped and cut to the cells left.
func (b *segs) add(st lipgloss.Style, text string) {
	if b.left <= 0 || text == "" {
		return
	}
	t := ui.Cell(precut(text, b.left), b.left)
	b.left -= ui.Width(t)
	// Style a one-cell stand-in and put t in its place: Render measures
	// its text, and t may be hundreds of escaped cells (the cut 1 MB line).
	r := st.Render("x")
	if i := strings.LastIndexByte(r, 'x'); i >= 0 {
		b.sb.WriteString(r[:i])
		b.sb.WriteString(t)
		b.sb.WriteString(r[i+1:])
		return
	}
	b.sb.WriteString(st.Render(t))
}

// addQuoted appends "text" in style st, as add does.
func (b *segs) addQuoted(st lipgloss.Style, text string) {
	// Cut to one cell less, so the quotes keep it within what Cell reads.
	b.add(st, `"`+precut(text, b.left-1)+`"`)
}

// addBase appends text in the row's base style: unstyled unless selected.
func (b *segs) addBase(base lipgloss.Style, selected bool, text string) {
	if selected {
		b.add(base, text)
		return
	}
	if b.left <= 0 || text == "" {
		return
	}
	t := ui.Cell(precut(text, b.left), b.left)
	b.left -= ui.Width(t)
	b.sb.WriteString(t)
}

// precut cuts a long s at a rune boundary to the bytes ui.Cell reads
// (4*width+8), marking the cut with "…", so Cell never cuts it itself and
// a quoted value still fits what Cell reads (TestHostileContent holds a
// 1 MB line of three-byte runes).
func precut(s string, width int) string {
	limit := 4*width + 8
	if len(s) <= limit {
		return s
	}
	i := limit - len("…")
	for k := 0; k < utf8.UTFMax-1 && i > 0 && !utf8.RuneStart(s[i]); k++ {
		i--
	}
	return s[:i] + "…"
}

func (b *segs) String() string { return b.sb.String() }

// offset is when a frame travelled, from the session's start (+2.49s); the
// absolute time when the session's start is unknown.
func (m Model) offset(t time.Time) string {
	if m.data.Snap == nil || m.data.Snap.Session.Start.IsZero() {
		return units.Time(t)
	}
	return units.Offset(t.Sub(m.data.Snap.Session.Start))
}
