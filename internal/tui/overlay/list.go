package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// frame is what every list overlay has: the theme and keys, the Data it
// shows, its size and the list's cursor.
type frame struct {
	th   *ui.Theme
	keys KeyMap
	data ui.Data
	w, h int
	cur  cursor
}

// rows is what a list overlay puts in the frame: the rows of its list
// and their title. R is the type itself, so set returns one.
type rows[R any] interface {
	// set returns the rows for d; f still holds the Data before d, and
	// set may move f's selection onto the row it showed.
	set(f *frame, d ui.Data) R
	count(f *frame) int
	// title is the first line, without the live mark.
	title(f *frame) string
	cells(f *frame, i int) []cell
	// empty is the line shown for no rows.
	empty() string
}

// headed rows have a column header line.
type headed interface {
	header(w int) []cell
}

// detailed rows describe the selected row in lines under the list.
type detailed interface {
	// detailHeight is the number of those lines at height h (at least 10).
	detailHeight(h int) int
	detail(f *frame, n int) []string
}

// jumper rows jump to the stream on Enter; the others disable the key.
type jumper interface {
	jump(f *frame) tea.Cmd
}

// list is a list overlay: a frame drawing the rows r.
type list[R rows[R]] struct {
	frame
	kind Kind
	r    R
}

// newList returns the list overlay of rows r over d.
func newList[R rows[R]](th *ui.Theme, kind Kind, d ui.Data, opts *Options, r R) list[R] {
	l := list[R]{frame: frame{th: th, keys: opts.keyMap()}, kind: kind, r: r}
	_, jumps := any(r).(jumper)
	l.keys.Jump.SetEnabled(jumps)
	_, reveals := any(r).(revealer[R])
	l.keys.Reveal.SetEnabled(reveals)
	return l.setData(d)
}

// Kind implements Overlay.
func (l list[R]) Kind() Kind { return l.kind }

// SetData implements Overlay: the rows are brought up to date, and the
// selection stays on the same row.
func (l list[R]) SetData(d ui.Data) Overlay { return l.setData(d) }

func (l list[R]) setData(d ui.Data) list[R] {
	if d.Snap == nil {
		l.data = d
		return l
	}
	l.r = l.r.set(&l.frame, d)
	l.data = d
	l.cur = l.cur.clamp(l.count(), l.listHeight())
	return l
}

// SetSize implements Overlay.
func (l list[R]) SetSize(w, h int) Overlay {
	l.w, l.h = max(w, 0), max(h, 0)
	l.cur = l.cur.clamp(l.count(), l.listHeight())
	return l
}

// Selected returns the index of the selected row.
func (l list[R]) Selected() int { return l.cur.sel }

// Bindings implements Overlay.
func (l list[R]) Bindings() []key.Binding { return l.keys.bindings() }

// Hints implements Overlay: jump (where it does something), moving,
// closing.
func (l list[R]) Hints() []ui.Hint {
	k := l.keys
	var hs []ui.Hint
	if k.Jump.Enabled() {
		hs = append(hs, ui.HintFor(k.Jump, "jump"))
	}
	if k.Reveal.Enabled() {
		hs = append(hs, ui.HintFor(k.Reveal, "reveal answer"))
	}
	return append(hs, ui.Hint{Key: "↑↓", Desc: "move"}, ui.HintFor(k.Top, "first"),
		ui.HintFor(k.Bottom, "last"), ui.HintFor(k.Back, "close"))
}

// Update implements Overlay: the keys and the wheel move the selection,
// Enter returns the rows' jump (ui.JumpMsg, ui.StatusMsg), esc and q
// ui.BackMsg.
func (l list[R]) Update(msg tea.Msg) (Overlay, tea.Cmd) {
	n, lh := l.count(), l.listHeight()
	switch msg := msg.(type) {
	case ui.DataMsg:
		return l.setData(msg.Data), nil
	case revealMsg:
		if rv, ok := any(l.r).(revealer[R]); ok {
			l.r = rv.revealed(&l.frame, msg)
			l.cur = l.cur.clamp(l.count(), l.listHeight())
		}
	case tea.MouseWheelMsg:
		l.cur = l.cur.wheel(ui.Wheel(msg), n, lh)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, l.keys.Back):
			return l, send(ui.BackMsg{})
		case key.Matches(msg, l.keys.Jump):
			return l, l.jump()
		case key.Matches(msg, l.keys.Reveal):
			if rv, ok := any(l.r).(revealer[R]); ok && l.cur.sel < n {
				return l, rv.reveal(&l.frame)
			}
		case key.Matches(msg, l.keys.Up):
			l.cur = l.cur.move(-1, n, lh)
		case key.Matches(msg, l.keys.Down):
			l.cur = l.cur.move(1, n, lh)
		case key.Matches(msg, l.keys.PageUp):
			l.cur = l.cur.move(-max(lh-1, 1), n, lh)
		case key.Matches(msg, l.keys.PageDown):
			l.cur = l.cur.move(max(lh-1, 1), n, lh)
		case key.Matches(msg, l.keys.Top):
			l.cur = l.cur.move(-n, n, lh)
		case key.Matches(msg, l.keys.Bottom):
			l.cur = l.cur.move(n, n, lh)
		}
	}
	return l, nil
}

// jump is the command Enter gives on the selected row, nil for none.
func (l list[R]) jump() tea.Cmd {
	j, ok := any(l.r).(jumper)
	if !ok || l.cur.sel >= l.count() {
		return nil
	}
	return j.jump(&l.frame)
}

// count is the number of rows of the list.
func (l list[R]) count() int { return l.r.count(&l.frame) }

// header reports whether the overlay has a column header line.
func (l list[R]) header() bool {
	_, ok := any(l.r).(headed)
	return ok && l.h >= 4
}

// detail is the number of lines under the list describing the selected
// row (dropped when the overlay is short).
func (l list[R]) detail() int {
	d, ok := any(l.r).(detailed)
	if !ok || l.h < 10 {
		return 0
	}
	return d.detailHeight(l.h)
}

// footer is the number of key footer lines: one when the overlay has
// room for it and a row.
func (l list[R]) footer() int {
	if l.h < 3 {
		return 0
	}
	return 1
}

// listHeight is the number of list rows shown.
func (l list[R]) listHeight() int {
	h := l.h - 1 - l.detail() - l.footer()
	if l.header() {
		h--
	}
	return max(h, 0)
}

// View implements Overlay.
func (l list[R]) View() string {
	if l.h == 0 {
		return ""
	}
	blank := strings.Repeat(" ", l.w)
	lines := make([]string, 0, l.h)
	lines = append(lines, ui.Pad(l.title(), l.w))
	if l.header() {
		lines = append(lines, l.renderHeader(any(l.r).(headed).header(l.w))) // as wide as the rows
	}
	n, lh := l.count(), l.listHeight()
	for i := l.cur.top; i < min(l.cur.top+lh, n); i++ {
		lines = append(lines, l.row(i, i == l.cur.sel))
	}
	if n == 0 && lh > 0 {
		lines = append(lines, ui.Pad(l.th.Dim.Render(ui.Cell(l.r.empty(), l.w)), l.w))
	}
	detail := l.detailLines()
	// The detail goes above the footer, which must not cover its last line.
	for len(lines) < l.h-len(detail)-l.footer() {
		lines = append(lines, blank)
	}
	for _, s := range detail {
		lines = append(lines, ui.Pad(s, l.w))
	}
	for len(lines) < l.h-l.footer() {
		lines = append(lines, blank)
	}
	if l.footer() > 0 {
		lines = append(lines[:l.h-1], ui.Pad(ui.Footer(l.th, l.Hints(), l.w), l.w))
	}
	return strings.Join(lines[:l.h], "\n")
}

// title is the first line: the overlay's name and its counts.
func (l list[R]) title() string {
	t := l.r.title(&l.frame)
	if s := l.data.LoadingText(); s != "" {
		t += " " + l.th.Warn.Render(s)
	}
	if l.data.Live {
		t += " " + l.th.Live.Render("● live")
	}
	return t
}

func (l list[R]) row(i int, selected bool) string {
	cs := l.r.cells(&l.frame, i)
	if selected {
		return l.renderSelected(cs)
	}
	return l.renderCells(cs, nil)
}

func (l list[R]) detailLines() []string {
	n := l.detail()
	if n == 0 || l.cur.sel >= l.count() {
		return nil
	}
	return any(l.r).(detailed).detail(&l.frame, n)
}
