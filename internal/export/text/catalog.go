package textexport

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// writeCatalog writes the catalog section: one line per list, then one row
// per definition (the current ones, then those removed since) with its
// hash prefix and what changed it. A session that listed nothing gets no
// section at all.
func writeCatalog(w *bufio.Writer, s *store.Snapshot, l Layout) {
	c := s.Catalog
	if c == nil {
		return
	}
	fmt.Fprintf(w, "\ncatalog (%s)\n", plural(len(c.Changes), "change"))
	for i := range c.Lists {
		l := &c.Lists[i]
		complete := ""
		if l.Complete {
			complete = ", complete"
		}
		fmt.Fprintf(w, "  %s: %s, %s, latest #%d%s\n", termtext.Escape(l.Method),
			plural(len(l.Definitions), "definition"), plural(l.Pages, "page"), l.Seq, complete)
	}
	byKey := make(map[[2]string][]*store.CatalogChange)
	var removed []*store.CatalogChange
	for i := range c.Changes {
		ch := &c.Changes[i]
		k := [2]string{ch.Kind, ch.Key}
		byKey[k] = append(byKey[k], ch)
		if ch.Change == store.ChangeRemoved {
			removed = append(removed, ch)
		}
	}
	if len(removed) == 0 && !slices.ContainsFunc(c.Lists, func(l store.CatalogList) bool { return len(l.Definitions) > 0 }) {
		return
	}
	t := &termtable.Table{Indent: "  ", Columns: []termtable.Column{
		{Header: "KIND"},
		{Header: "NAME", Cut: true, Min: 16},
		{Header: "HASH", Drop: 1},
		{Header: "CHANGES", Cut: true, Min: 16},
	}}
	var body cells
	current := make(map[[2]string]bool)
	for i := range c.Lists {
		list := &c.Lists[i]
		for j := range list.Definitions {
			d := &list.Definitions[j]
			k := [2]string{list.Kind, d.Key}
			current[k] = true
			body = append(body, []termtable.Cell{text(cell(list.Kind)), text(catalogName(d.Key)), text(d.Hash[:min(12, len(d.Hash))]),
				text(changesText(byKey[k]))})
		}
	}
	for _, ch := range removed {
		k := [2]string{ch.Kind, ch.Key}
		if current[k] {
			continue
		}
		current[k] = true // one row per key, however often it went
		body = append(body, []termtable.Cell{text(cell(ch.Kind)), text(catalogName(ch.Key)), text("-"), text(changesText(byKey[k]))})
	}
	l.render(w, t, body)
}

// catalogName escapes a definition's key for a table cell, cut short past
// 48 bytes: a server may name a tool with a megabyte.
func catalogName(key string) string {
	const max = 48
	switch {
	case key == "":
		return "(none)"
	case len(key) <= max:
		return termtext.Escape(key)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(key[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", termtext.Escape(key[:cut]), len(key))
}

// changesText lists a definition's changes, "added #9, changed #12
// (list_changed #11)"; past three, the rest are counted.
func changesText(chs []*store.CatalogChange) string {
	if len(chs) == 0 {
		return "-"
	}
	var parts []string
	for _, ch := range chs[:min(3, len(chs))] {
		p := fmt.Sprintf("%s #%d", termtext.Escape(ch.Change), ch.Seq)
		if ch.Notified != 0 {
			p += fmt.Sprintf(" (list_changed #%d)", ch.Notified)
		}
		parts = append(parts, p)
	}
	if n := len(chs) - 3; n > 0 {
		parts = append(parts, fmt.Sprintf("%d more", n))
	}
	return strings.Join(parts, ", ")
}
