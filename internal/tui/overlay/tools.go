package overlay

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	textexport "github.com/mcptrail/mcptrail/internal/export/text"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// toolRow is one definition of the catalog (a tool, prompt, resource or
// resource template), or a tool the client called that was never listed.
type toolRow struct {
	kind, name string
	listed     bool // in the current listing
	size       int  // bytes of the definition as listed; 0 when not listed
	stat       store.Stat
	changes    []store.CatalogChange
}

// toolsState is the tools overlay's cache: the times of the catalog's
// changes, found once per catalog.
type toolsState struct {
	catalog *store.Catalog
	when    map[uint64]time.Time
}

// setTools builds the rows: the current definitions of every list, those
// removed since, then the tools called but never listed.
func (m Model) setTools(d ui.Data) Model {
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
	m.tools = rows
	if snap.Catalog != m.toolsCache.catalog {
		m.toolsCache = toolsState{catalog: snap.Catalog, when: changeTimes(snap)}
	}
	return m
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

func (m Model) toolsTitle() string {
	var defs, changed, called int
	for _, r := range m.tools {
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
	return m.th.Title.Render("Tools") + " " + m.th.Dim.Render(fmt.Sprintf("%d listed · %d called · %d changed during the session", defs, called, changed))
}

// nameWidth is the width of the NAME column on a line of w cells.
func nameWidth(w int) int { return max(12, (w-48)*4/10) }

func toolsHeader(w int) []cell {
	return []cell{{s: "KIND", w: 8}, {s: "NAME", w: nameWidth(w)}, {s: "CALLS", w: 5}, {s: "ERRORS", w: 6},
		{s: "P50", w: 8}, {s: "P95", w: 8}, {s: "SIZE", w: 6}, {s: "CHANGES"}}
}

func (m Model) toolCells(i int) []cell {
	r := &m.tools[i]
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
		return textexport.FormatMS(v)
	}
	nw := nameWidth(m.w)
	name := ui.Cell(r.name, nw)
	if r.name == "" {
		name = "(none)"
	}
	size := "-"
	if r.listed {
		size = bytesText(r.size)
	}
	errSt := m.th.Dim
	if r.stat.Errors > 0 {
		errSt = m.th.Bad
	}
	chText, chSt := m.changesText(r)
	return []cell{
		{s: ui.Cell(kind, 8), w: 8, st: styled(m.th.Dim)},
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
func (m Model) changesText(r *toolRow) (string, *lipgloss.Style) {
	if len(r.changes) == 0 {
		if !r.listed && r.kind == store.KindTool {
			return "not listed", styled(m.th.Warn)
		}
		return "", nil
	}
	parts := make([]string, 0, len(r.changes))
	for i := len(r.changes) - 1; i >= 0; i-- {
		ch := r.changes[i]
		p := ui.Cell(ch.Change, 10) + " #" + strconv.FormatUint(ch.Seq, 10)
		if t := m.toolsCache.when[ch.Seq]; !t.IsZero() {
			p += " " + m.since(t)
		}
		parts = append(parts, p)
	}
	st := m.th.Warn
	switch r.changes[len(r.changes)-1].Change {
	case store.ChangeAdded:
		st = m.th.OK
	case store.ChangeRemoved:
		st = m.th.Bad
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
