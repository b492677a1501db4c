package diff

import (
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// compareCatalogs lists the definitions added, removed or changed (by
// hash) between the current lists of two catalogs, kind by kind in the
// catalog's order, then in a's order with b's new definitions last. A
// kind only one side listed is compared against an empty list.
func compareCatalogs(a, b *store.Catalog) []CatalogDelta {
	var out []CatalogDelta
	for _, kind := range kinds(a, b) {
		da, db := definitions(a, kind), definitions(b, kind)
		inB := map[string]*store.Definition{}
		for i := range db {
			inB[db[i].Key] = &db[i]
		}
		inA := map[string]bool{}
		for i := range da {
			old := &da[i]
			inA[old.Key] = true
			switch nw := inB[old.Key]; {
			case nw == nil:
				out = append(out, CatalogDelta{Kind: kind, Key: old.Key, Change: store.ChangeRemoved, OldHash: old.Hash, Old: old})
			case nw.Hash != old.Hash:
				out = append(out, CatalogDelta{Kind: kind, Key: old.Key, Change: store.ChangeChanged,
					OldHash: old.Hash, NewHash: nw.Hash, Old: old, New: nw})
			}
		}
		for i := range db {
			if nw := &db[i]; !inA[nw.Key] {
				out = append(out, CatalogDelta{Kind: kind, Key: nw.Key, Change: store.ChangeAdded, NewHash: nw.Hash, New: nw})
			}
		}
	}
	return out
}

// kinds lists the kinds either catalog listed, a's first.
func kinds(a, b *store.Catalog) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range []*store.Catalog{a, b} {
		if c == nil {
			continue
		}
		for _, l := range c.Lists {
			if !seen[l.Kind] {
				seen[l.Kind] = true
				out = append(out, l.Kind)
			}
		}
	}
	return out
}

// definitions returns the current definitions of kind; nil when c listed
// none. Duplicated keys keep their first definition.
func definitions(c *store.Catalog, kind string) []store.Definition {
	if c == nil {
		return nil
	}
	for _, l := range c.Lists {
		if l.Kind == kind {
			return l.Definitions
		}
	}
	return nil
}

// classifyTools attaches to each changed tool and skill of ds what the
// drift rules make of it (rules.CompareCatalogs, rules.CompareSkillCatalogs),
// so diff and check --tools-baseline name a change alike.
func classifyTools(ds []CatalogDelta, a, b *store.Catalog) {
	byTool := map[string][]rules.ToolChange{}
	for _, c := range rules.CompareCatalogs(a, b) {
		if c.What != "" {
			byTool[c.Tool] = append(byTool[c.Tool], c)
		}
	}
	bySkill := map[string][]rules.ToolChange{}
	for _, c := range rules.CompareSkillCatalogs(a, b) {
		if c.Kind == rules.SkillChanged {
			bySkill[c.Tool] = append(bySkill[c.Tool], c)
		}
	}
	for i := range ds {
		switch d := &ds[i]; {
		case d.Change != store.ChangeChanged:
		case d.Kind == store.KindTool:
			d.Drift = byTool[d.Key]
		case d.Kind == store.KindSkill:
			d.Drift = bySkill[d.Key]
		}
	}
}
