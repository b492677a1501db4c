package stream

import (
	"slices"
	"sort"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// kind says what a row shows.
type kind uint8

// The kinds of row.
const (
	rowCall  kind = iota // a top-level call, or an operation (its root call)
	rowRound             // a round of an expanded operation
	rowChild             // a legacy server request under the call it interrupted
	rowLine              // a notification, stderr line or note
)

// row is one line of the stream: idx is a call's index (a line's for
// rowLine) and top the ordinal of the top-level entry it belongs to. Rows
// are kept ordered by top, so a group is found by binary search.
type row struct {
	kind kind
	top  int32
	idx  int32
}

// entry is a top-level entry: a call (or operation) or a line.
type entry struct {
	line bool
	idx  int32
}

// index is the stream's virtual list: the top-level entries in order
// (calls by request, lines by seq between them), what nests under each,
// and the rows the filter and the toggles let through. A newer Data
// appends to it; only the groups that changed are rebuilt.
type index struct {
	session string
	calls   int // calls indexed
	lines   int // lines indexed
	tops    []entry
	// topOf maps a call to its top-level entry (its operation's root's,
	// its parent's for a nested server request).
	topOf    []int32
	children map[int32][]int32
	rows     []row
}

// scope is what deciding and building rows needs.
type scope struct {
	snap     *store.Snapshot
	lines    []ui.Line
	f        *filter.Filter // nil: every row
	notes    bool           // notifications shown
	stderr   bool           // stderr lines and notes shown
	expanded map[int32]bool // by root call
	facts    *facts

	// scratch for building items without allocating.
	ids    [2]string
	elicit []string
}

// fits reports whether ix can grow into snap and lines, rather than be
// built afresh (another session, or fewer calls or lines than indexed).
func (ix *index) fits(snap *store.Snapshot, lines []ui.Line) bool {
	return ix.session == snap.Session.ID && snap.Calls.Len() >= ix.calls && len(lines) >= ix.lines
}

// grow indexes the calls and lines that are new in sc and rebuilds the
// groups that changed: those that got a round or a nested request, and,
// with a filter, those holding a call of dirty.
func (ix *index) grow(sc *scope, dirty []int32) {
	first := int32(len(ix.tops))
	changed := ix.classify(sc)
	if sc.f != nil {
		for _, c := range dirty {
			if c >= 0 && int(c) < len(ix.topOf) {
				changed = append(changed, ix.topOf[c])
			}
		}
	}
	changed = slices.DeleteFunc(changed, func(t int32) bool { return t >= first })
	slices.Sort(changed)
	changed = slices.Compact(changed)
	if len(changed) > 64 && len(changed) > len(ix.tops)/16 {
		ix.rebuild(sc)
		return
	}
	for _, t := range changed {
		ix.refresh(sc, t)
	}
	for t := first; t < int32(len(ix.tops)); t++ {
		ix.rows = ix.group(ix.rows, sc, t)
	}
}

// classify takes in the new calls and lines, merged by seq, and returns the
// existing entries that got a round or a nested request.
func (ix *index) classify(sc *scope) []int32 {
	var changed []int32
	nc, nl := sc.snap.Calls.Len(), len(sc.lines)
	if len(ix.tops) == 0 {
		// Size a first build at once; later ones append (amortized).
		ix.tops = slices.Grow(ix.tops, (nc+nl)*5/4)
		ix.topOf = slices.Grow(ix.topOf, nc*5/4)
		ix.rows = slices.Grow(ix.rows, (nc+nl)*5/4)
	}
	var c store.Call
	have := false
	for ix.calls < nc || ix.lines < nl {
		if !have && ix.calls < nc {
			c, have = sc.snap.Calls.At(ix.calls), true
		}
		if ix.lines < nl && (!have || sc.lines[ix.lines].Seq < c.RequestSeq) {
			ix.tops = append(ix.tops, entry{line: true, idx: int32(ix.lines)})
			ix.lines++
			continue
		}
		sc.facts.track(&c)
		if t, ok := ix.nest(sc, &c); ok {
			changed = append(changed, t)
		}
		ix.calls++
		have = false
	}
	return changed
}

// nest files call c: under its operation's root, under the call it
// interrupted, or as a new top-level entry. It returns the entry it went
// under, if not a new one.
func (ix *index) nest(sc *scope, c *store.Call) (int32, bool) {
	i := int32(c.Index)
	if c.Operation >= 0 && c.Round > 1 && c.Operation < sc.snap.Operations.Len() {
		if root := sc.snap.Operations.At(c.Operation).Root; root >= 0 && root < c.Index {
			t := ix.topOf[root]
			ix.topOf = append(ix.topOf, t)
			return t, true
		}
	}
	if c.Dir == capture.S2C && c.Parent >= 0 && c.Parent < c.Index {
		t := ix.topOf[c.Parent]
		ix.topOf = append(ix.topOf, t)
		if ix.children == nil {
			ix.children = map[int32][]int32{}
		}
		ix.children[t] = append(ix.children[t], i)
		return t, true
	}
	ix.topOf = append(ix.topOf, int32(len(ix.tops)))
	ix.tops = append(ix.tops, entry{idx: i})
	return 0, false
}

// rebuild makes the rows afresh (a filter or toggle changed).
func (ix *index) rebuild(sc *scope) {
	ix.rows = ix.rows[:0]
	for t := range int32(len(ix.tops)) {
		ix.rows = ix.group(ix.rows, sc, t)
	}
}

// span returns the rows of entry t: rows[lo:hi].
func (ix *index) span(t int32) (lo, hi int) {
	lo = sort.Search(len(ix.rows), func(i int) bool { return ix.rows[i].top >= t })
	hi = lo
	for hi < len(ix.rows) && ix.rows[hi].top == t {
		hi++
	}
	return lo, hi
}

// refresh rebuilds the rows of entry t.
func (ix *index) refresh(sc *scope, t int32) {
	lo, hi := ix.span(t)
	ix.rows = slices.Replace(ix.rows, lo, hi, ix.group(nil, sc, t)...)
}

// find returns the position of r, or where its entry's rows are (or
// would be) and false.
func (ix *index) find(r row) (int, bool) {
	lo, hi := ix.span(r.top)
	for i := lo; i < hi; i++ {
		if ix.rows[i].kind == r.kind && ix.rows[i].idx == r.idx {
			return i, true
		}
	}
	return lo, false
}

// group appends the rows of entry t that sc lets through: a line, or a
// call with its expanded rounds and nested requests, shown or hidden
// together (the filter matches the group when it matches any of them).
func (ix *index) group(dst []row, sc *scope, t int32) []row {
	e := ix.tops[t]
	if e.line {
		if l := &sc.lines[e.idx]; sc.shows(l) && (sc.f == nil || sc.f.Match(lineItem(l))) {
			dst = append(dst, row{kind: rowLine, top: t, idx: e.idx})
		}
		return dst
	}
	kids := ix.children[t]
	var rounds []store.Round
	// Unfiltered and collapsed, a call's row needs nothing of the call.
	if sc.f != nil || sc.expanded[e.idx] {
		c := sc.snap.Calls.At(int(e.idx))
		rounds = sc.rounds(&c)
		if sc.f != nil && !sc.matchGroup(&c, rounds, kids) {
			return dst
		}
	}
	dst = append(dst, row{kind: rowCall, top: t, idx: e.idx})
	if sc.expanded[e.idx] {
		for _, r := range rounds {
			dst = append(dst, row{kind: rowRound, top: t, idx: int32(r.Call)})
		}
	}
	for _, k := range kids {
		dst = append(dst, row{kind: rowChild, top: t, idx: k})
	}
	return dst
}

// rounds returns the rounds of c's operation when c is its root.
func (sc *scope) rounds(c *store.Call) []store.Round {
	if c.Operation < 0 || c.Operation >= sc.snap.Operations.Len() {
		return nil
	}
	op := sc.snap.Operations.At(c.Operation)
	if op.Root != c.Index {
		return nil
	}
	return op.Rounds
}

// shows reports whether the toggles show line l.
func (sc *scope) shows(l *ui.Line) bool {
	if l.Kind == ui.LineNotification {
		return sc.notes
	}
	return sc.stderr
}
