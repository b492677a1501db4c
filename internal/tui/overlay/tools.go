package overlay

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
	"github.com/mcptrail/mcptrail/internal/units"
)

// Tools is the catalog (tools, prompts, resources and resource templates)
// with the calls' statistics and the catalog's changes.
const Tools Kind = "tools"

func newTools(th *ui.Theme, d ui.Data, opts *Options) Overlay {
	return newList(th, Tools, d, opts, toolRows{})
}

// toolRows are the tools overlay's rows and the times of the catalog's
// changes, found once per catalog.
type toolRows struct {
	rows    []toolRow
	catalog *store.Catalog
	when    map[uint64]time.Time
}

func (t toolRows) count(*frame) int { return len(t.rows) }

func (toolRows) empty() string { return "the server listed nothing and no tool was called" }

// toolRow is one definition of the catalog (a tool, prompt, resource or
// resource template), or a tool the client called that was never listed.
type toolRow struct {
	kind, name string
	listed     bool // in the current listing
	size       int  // bytes of the definition as listed; 0 when not listed
	stat       store.Stat
	changes    []store.CatalogChange
}

// set builds the rows: the current definitions of every list, those
// removed since, then the tools called but never listed.
func (t toolRows) set(_ *frame, d ui.Data) toolRows {
	snap := d.Snap
	stats := make(map[string]store.Stat, len(snap.Summary.Tools))
	for _, s := range snap.Summary.Tools {
		stats[s.Name] = s
	}
	var rows []toolRow
	seen := map[[2]string]int{}
	if c := snap.Catalog; c != nil {
		for _, l := range c.Lists {
			for _, def := range l.Definitions {
				seen[[2]string{l.Kind, def.Key}] = len(rows)
				rows = append(rows, toolRow{kind: l.Kind, name: def.Key, listed: true, size: def.Size})
			}
		}
		for _, ch := range c.Changes {
			k := [2]string{ch.Kind, ch.Key}
			i, ok := seen[k]
			if !ok {
				i, seen[k] = len(rows), len(rows)
				rows = append(rows, toolRow{kind: ch.Kind, name: ch.Key})
			}
			rows[i].changes = append(rows[i].changes, ch)
		}
	}
	for _, s := range snap.Summary.Tools {
		if _, ok := seen[[2]string{store.KindTool, s.Name}]; !ok {
			rows = append(rows, toolRow{kind: store.KindTool, name: s.Name})
		}
	}
	for i := range rows {
		if rows[i].kind == store.KindTool {
			rows[i].stat = stats[rows[i].name]
		}
	}
	t.rows = rows
	if snap.Catalog != t.catalog {
		t.catalog, t.when = snap.Catalog, changeTimes(snap)
	}
	return t
}

// changeTimes finds the time of each catalog change: the end of the list
// call whose response showed it.
func changeTimes(snap *store.Snapshot) map[uint64]time.Time {
	if snap.Catalog == nil || len(snap.Catalog.Changes) == 0 {
		return nil
	}
	want := make(map[uint64]time.Time, len(snap.Catalog.Changes))
	for _, ch := range snap.Catalog.Changes {
		want[ch.Seq] = time.Time{}
	}
	left := len(want)
	for i := snap.Calls.Len() - 1; i >= 0 && left > 0; i-- {
		c := snap.Calls.At(i)
		if t, ok := want[c.ResponseSeq]; ok && t.IsZero() && c.ResponseSeq != 0 {
			want[c.ResponseSeq] = c.End
			left--
		}
	}
	return want
}

func (t toolRows) title(f *frame) string {
	var defs, changed, called int
	for _, r := range t.rows {
		if r.listed {
			defs++
		}
		if len(r.changes) > 0 {
			changed++
		}
		if r.stat.Count > 0 {
			called++
		}
	}
	return f.th.Title.Render("Tools") + " " + f.th.Dim.Render(fmt.Sprintf("%d listed · %d called · %d changed during the session", defs, called, changed))
}

// nameWidth is the width of the NAME column on a line of w cells.
func nameWidth(w int) int { return max(12, (w-48)*4/10) }

func (toolRows) header(w int) []cell {
	return []cell{{s: "KIND", w: 8}, {s: "NAME", w: nameWidth(w)}, {s: "CALLS", w: 5}, {s: "ERRORS", w: 6},
		{s: "P50", w: 8}, {s: "P95", w: 8}, {s: "SIZE", w: 6}, {s: "CHANGES"}}
}

func (t toolRows) cells(f *frame, i int) []cell {
	r := &t.rows[i]
	kind := r.kind
	if kind == store.KindResourceTemplate {
		kind = "template"
	}
	num := func(n int, ok bool) string {
		if !ok {
			return "-"
		}
		return strconv.Itoa(n)
	}
	ms := func(v float64) string {
		if r.stat.Count == 0 {
			return "-"
		}
		return units.Millis(v)
	}
	nw := nameWidth(f.w)
	name := ui.Cell(r.name, nw)
	if r.name == "" {
		name = "(none)"
	}
	size := "-"
	if r.listed {
		size = bytesText(r.size)
	}
	errSt := f.th.Dim
	if r.stat.Errors > 0 {
		errSt = f.th.Bad
	}
	chText, chSt := t.changesText(f, r)
	return []cell{
		{s: ui.Cell(kind, 8), w: 8, st: styled(f.th.Dim)},
		{s: name, w: nw},
		{s: num(r.stat.Count, r.kind == store.KindTool), w: 5},
		{s: num(r.stat.Errors, r.kind == store.KindTool), w: 6, st: styled(errSt)},
		{s: ms(r.stat.P50MS), w: 8},
		{s: ms(r.stat.P95MS), w: 8},
		{s: size, w: 6},
		{s: chText, st: chSt},
	}
}

// changesText lists a row's changes, latest first: "changed #12 +2.840s";
// a tool called but never listed says so.
func (t toolRows) changesText(f *frame, r *toolRow) (string, *lipgloss.Style) {
	if len(r.changes) == 0 {
		if !r.listed && r.kind == store.KindTool {
			return "not listed", styled(f.th.Warn)
		}
		return "", nil
	}
	parts := make([]string, 0, len(r.changes))
	for i := len(r.changes) - 1; i >= 0; i-- {
		ch := r.changes[i]
		p := ui.Cell(ch.Change, 10) + " #" + strconv.FormatUint(ch.Seq, 10)
		if at := t.when[ch.Seq]; !at.IsZero() {
			p += " " + f.since(at)
		}
		parts = append(parts, p)
	}
	st := f.th.Warn
	switch r.changes[len(r.changes)-1].Change {
	case store.ChangeAdded:
		st = f.th.OK
	case store.ChangeRemoved:
		st = f.th.Bad
	}
	return strings.Join(parts, ", "), styled(st)
}

// bytesText renders a size: "812B", "4.1kB", "1.2MB".
func bytesText(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n) + "B"
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "kB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "MB"
}
