package overlay

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	tea "charm.land/bubbletea/v2"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/units"
)

// Ledger is the elicitation ledger: a row a question the server asked,
// with its answer.
const Ledger Kind = "ledger"

func newLedger(th *ui.Theme, d ui.Data, opts *Options) Overlay {
	return newList(th, Ledger, d, opts, ledgerRows{})
}

// ledgerRows is what the ledger overlay keeps besides the rows, which it
// reads from the snapshot's Ledger as they are drawn.
type ledgerRows struct {
	// seen rows were looked at by the last SetData; of those, the final
	// ones (answered: they never change again) are counted in base, and
	// open lists the others, which the next SetData looks at again.
	seen   int
	base   ledgerCounts
	open   []int
	counts ledgerCounts
	// shown is the answer revealed (reveal.go), for its row only; zero
	// when none was.
	shown revealMsg
}

// ledgerCounts are the title's tallies.
type ledgerCounts struct {
	asked, accept, decline, cancel, pending, other int
	// mrtr counts the rows of MRTR operations, the only ones with a
	// wait/tool split: without any, that column would be all "-".
	mrtr int
}

// rowID identifies a ledger row across snapshots.
type rowID struct {
	seq       uint64
	key, elID string
}

func idOf(r *store.LedgerRow) rowID {
	return rowID{seq: r.AskedSeq, key: r.Key, elID: r.ElicitationID}
}

func (c *ledgerCounts) add(r *store.LedgerRow) {
	c.asked++
	if r.Operation >= 0 {
		c.mrtr++
	}
	switch {
	case r.Status == store.LedgerPending:
		c.pending++
	case r.Action == "accept":
		c.accept++
	case r.Action == "decline":
		c.decline++
	case r.Action == "cancel":
		c.cancel++
	default:
		c.other++
	}
}

func (c ledgerCounts) plus(d ledgerCounts) ledgerCounts {
	return ledgerCounts{asked: c.asked + d.asked, accept: c.accept + d.accept, decline: c.decline + d.decline,
		cancel: c.cancel + d.cancel, pending: c.pending + d.pending, other: c.other + d.other, mrtr: c.mrtr + d.mrtr}
}

// final reports whether r can no longer change.
func final(r *store.LedgerRow) bool {
	return r.Status == store.LedgerAnswered || r.Status == store.LedgerError
}

// set counts the rows that may have changed since the last Data and
// finds the selected row again.
func (st ledgerRows) set(f *frame, d ui.Data) ledgerRows {
	l := &d.Snap.Ledger
	if l.Len() < st.seen { // another session: start over
		st = ledgerRows{}
	}
	var sel rowID
	if old := f.data.Snap; old != nil && f.cur.sel < old.Ledger.Len() {
		r := old.Ledger.At(f.cur.sel)
		sel = idOf(&r)
	}
	var open ledgerCounts
	still := st.open[:0:0]
	count := func(i int) {
		r := l.At(i)
		if final(&r) {
			st.base.add(&r)
			return
		}
		open.add(&r)
		still = append(still, i)
	}
	for _, i := range st.open {
		count(i)
	}
	for i := st.seen; i < l.Len(); i++ {
		count(i)
	}
	st.seen, st.open = l.Len(), still
	st.counts = st.base.plus(open)
	f.cur.sel = ledgerIndex(l, f.cur.sel, sel)
	return st
}

func (ledgerRows) count(f *frame) int {
	if f.data.Snap == nil {
		return 0
	}
	return f.data.Snap.Ledger.Len()
}

func (ledgerRows) empty() string { return "no elicitations in this session" }

func (st ledgerRows) detailHeight(int) int {
	if st.shown.id != (rowID{}) {
		return 4 // the revealed answer's line
	}
	return 3
}

// ledgerIndex returns the index of the row id, looking at near first (rows
// are only appended, so it is almost always there); near when absent.
func ledgerIndex(l *store.Ledger, near int, id rowID) int {
	if id == (rowID{}) {
		return near
	}
	if near < l.Len() {
		if r := l.At(near); idOf(&r) == id {
			return near
		}
	}
	for i := range l.Len() {
		if r := l.At(i); idOf(&r) == id {
			return i
		}
	}
	return near
}

func (st ledgerRows) title(f *frame) string {
	c := st.counts
	t := f.th.Title.Render("Elicitation ledger") + " " + f.th.Dim.Render(fmt.Sprintf("asked %d", c.asked))
	for _, p := range []struct {
		name string
		n    int
	}{{"accept", c.accept}, {"decline", c.decline}, {"cancel", c.cancel}, {"pending", c.pending}, {"other", c.other}} {
		if p.n == 0 && p.name == "other" || p.name == "pending" && f.data.Loading {
			continue // a row read half-way is not pending
		}
		st := f.th.Action(p.name)
		if p.name == "other" || p.n == 0 {
			st = f.th.Dim
		}
		t += f.th.Dim.Render(" · ") + st.Render(fmt.Sprintf("%s %d", p.name, p.n))
	}
	return t
}

// ledgerLayout is the ledger's columns for a line of w cells. The
// question (MESSAGE) and the calling tool (ROOT) are what a person reads:
// from 80 columns on each keeps at least minName cells, and the constant
// columns give way first (the round and the fields at 80, the wait/tool
// split when no row has one, "tools/call" before every tool name).
type ledgerLayout struct {
	round, wait, elapsed, root, asks int // 0: dropped
	waitOnly                         bool
}

// minName is the least width of a name or message column from 80 columns
// on (preamble 4 of issue 28).
const minName = 20

// Fixed widths.
const (
	timeW, roundW, modeW, actionW = 8, 6, 4, 9
	waitToolW, waitW, elapsedW    = 15, 8, 8
)

func ledgerWidths(w int, mrtr bool) ledgerLayout {
	var l ledgerLayout
	left := w - (timeW + 1) - (modeW + 1) - (actionW + 1)
	switch {
	case mrtr && w >= 100:
		l.wait = waitToolW
	case mrtr:
		l.wait, l.waitOnly = waitW, true
	}
	if l.wait > 0 {
		left -= l.wait + 1
	}
	if w >= 100 {
		l.round = roundW
		left -= roundW + 1
	}
	if w >= 120 {
		l.elapsed = elapsedW
		left -= elapsedW + 1
	}
	left -= 2 // the gaps before ROOT and MESSAGE
	switch {
	case left >= 3*minName+1:
		l.root = max(minName, left*3/10)
		l.asks = min(left*3/10, left-l.root-1-minName)
	case left >= 2*minName:
		l.root = minName + (left-2*minName)/3
	default:
		l.root = max(left/2, 0)
	}
	return l
}

func (st ledgerRows) header(w int) []cell {
	l := ledgerWidths(w, st.counts.mrtr > 0)
	wait := "WAIT/TOOL"
	if l.waitOnly {
		wait = "WAIT"
	}
	return l.cells("TIME", "ROUND", "MODE", "ACTION", wait, "ELAPSED", "ROOT", "FIELDS/HOST", "MESSAGE", nil, nil)
}

// cells lays one line's texts out in l's columns.
func (l ledgerLayout) cells(at, round, mode, action, wait, elapsed, root, asks, msg string, dim, act *lipgloss.Style) []cell {
	cs := []cell{{s: at, w: timeW, st: dim}}
	if l.round > 0 {
		cs = append(cs, cell{s: round, w: l.round})
	}
	cs = append(cs, cell{s: mode, w: modeW}, cell{s: action, w: actionW, st: act})
	if l.wait > 0 {
		cs = append(cs, cell{s: wait, w: l.wait})
	}
	if l.elapsed > 0 {
		cs = append(cs, cell{s: elapsed, w: l.elapsed})
	}
	cs = append(cs, cell{s: root, w: l.root})
	if l.asks > 0 {
		cs = append(cs, cell{s: asks, w: l.asks})
	}
	return append(cs, cell{s: msg})
}

func (st ledgerRows) cells(f *frame, i int) []cell {
	r := bounded(f.data.Snap.Ledger.At(i), f.w)
	c := textexport.LedgerRowCells(&r)
	l := ledgerWidths(f.w, st.counts.mrtr > 0)
	wait := "-"
	if r.Operation >= 0 {
		wait = units.Millis(r.WaitMS)
		if !l.waitOnly {
			wait += "/" + units.Millis(r.ToolMS)
		}
	}
	return l.cells(f.since(r.AskedAt), roundText(&r), c.Mode, c.Answer, wait, elapsed(&r),
		rootName(&r, f.w), c.Asks, ui.Cell(r.Message, f.w), styled(f.th.Dim), styled(f.answerStyle(&r)))
}

// elapsed is the time from the question to its answer; "-" unanswered.
func elapsed(r *store.LedgerRow) string {
	if r.AnsweredSeq == 0 {
		return "-"
	}
	return units.Millis(r.ElapsedMS)
}

// rootName names the client call a row belongs to by what varies: the
// tool for a tools/call, else the method and its target.
func rootName(r *store.LedgerRow, w int) string {
	switch {
	case r.Root.Call < 0:
		return "(unattributed)"
	case r.Root.Method == "tools/call" && r.Root.Target != "":
		return ui.Cell(r.Root.Target, w)
	case r.Root.Target != "":
		return ui.Cell(r.Root.Method, w) + " " + ui.Cell(r.Root.Target, w)
	}
	return ui.Cell(r.Root.Method, w)
}

// since is the time t from the session's start: "+920.0ms" (units.Offset); "-" when
// either is unknown.
func (f *frame) since(t time.Time) string {
	start := f.data.Snap.Session.Start
	if t.IsZero() || start.IsZero() {
		return "-"
	}
	return units.Offset(t.Sub(start))
}

// roundText is the round of an MRTR row ("mrtr 2") or the era.
func roundText(r *store.LedgerRow) string {
	if r.Round > 0 {
		return "mrtr " + strconv.Itoa(r.Round)
	}
	return ui.Cell(r.Era, 16)
}

// answerStyle colours a row's answer: its action, else its status.
func (f *frame) answerStyle(r *store.LedgerRow) lipgloss.Style {
	switch {
	case r.Action != "":
		return f.th.Action(r.Action)
	case r.Status == store.LedgerPending:
		return f.th.Pending
	case r.Status == store.LedgerError:
		return f.th.Bad
	}
	return f.th.Warn
}

// detail describes the selected row: its root call and key, when it
// was asked and answered, the whole question, what became of the task
// that asked it, and the notes.
func (st ledgerRows) detail(f *frame, _ int) []string {
	r := bounded(f.data.Snap.Ledger.At(f.cur.sel), f.w)
	c := textexport.LedgerRowCells(&r)
	dim := f.th.Dim
	first := dim.Render("root ") + fit(c.Root, f.w/2) + dim.Render(" · key ") + fit(c.Key, f.w/4) +
		dim.Render(" · asked ") + "#" + strconv.FormatUint(r.AskedSeq, 10)
	if r.AnsweredSeq != 0 {
		first += dim.Render(" · answered ") + "#" + strconv.FormatUint(r.AnsweredSeq, 10) + dim.Render(" after ") + elapsed(&r)
	}
	second := dim.Render("question ") + ui.Cell(r.Message, f.w)
	third := dim.Render("asks ") + c.Asks
	if ops := &f.data.Snap.Operations; r.Operation >= 0 && r.Operation < ops.Len() {
		op := ops.At(r.Operation)
		if t := textexport.LedgerTaskNote(&op); t != "" {
			third += dim.Render(" · ") + t
		}
	}
	if c.Notes != "" {
		third += dim.Render(" · notes ") + c.Notes
	}
	lines := []string{first, second, third}
	if l, ok := st.revealLine(f, &r); ok {
		lines = append(lines, l)
	} else if st.shown.id != (rowID{}) {
		lines = append(lines, dim.Render("v reveals this row's answer"))
	}
	return lines
}

// jump jumps to the row's root call; to the call that carried the
// question, or its frame, when no root is known.
func (ledgerRows) jump(f *frame) tea.Cmd {
	r := f.data.Snap.Ledger.At(f.cur.sel)
	switch {
	case r.Root.Call >= 0:
		return send(ui.JumpMsg{Call: r.Root.Call})
	case r.Call >= 0:
		return send(ui.JumpMsg{Call: r.Call})
	}
	return send(ui.JumpMsg{Call: -1, Seq: r.AskedSeq})
}

// bounded cuts every string of r to what a line of w cells can show (as
// ui.Cell does), so that a megabyte message costs what a short one does.
// A cut string still overflows its cell, which then ends in "…".
func bounded(r store.LedgerRow, w int) store.LedgerRow {
	n := 4*max(w, 1) + 8
	r.Root.Method, r.Root.Target = clip(r.Root.Method, n), clip(r.Root.Target, n)
	r.Key, r.Mode, r.Message = clip(r.Key, n), clip(r.Mode, n), clip(r.Message, n)
	r.URL, r.Host, r.ElicitationID, r.Resource = clip(r.URL, n), clip(r.Host, n), clip(r.ElicitationID, n), clip(r.Resource, n)
	r.Action, r.Status = clip(r.Action, n), clip(r.Status, n)
	if len(r.Fields) > 0 {
		fs := make([]store.LedgerField, 0, min(len(r.Fields), n/2))
		for _, f := range r.Fields[:min(len(r.Fields), n/2)] {
			typ := f.Type
			if f.Options != nil { // a select field shows its options: enum(now|tonight)
				typ += "(" + strings.Join(f.Options[:min(len(f.Options), n/2)], "|") + ")"
			}
			fs = append(fs, store.LedgerField{Name: clip(f.Name, n), Type: clip(typ, n), Required: f.Required})
		}
		r.Fields = fs
	}
	return r
}

// clip cuts s to at most n bytes, at a character's start.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
