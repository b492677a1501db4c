package store

import (
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// How pages make listings, and listings make changes:
//   - a page whose request had no cursor starts a new listing of its list;
//     its later pages (requests with a cursor) add to it, and a page
//     without nextCursor completes it;
//   - every page adds the definitions it lists and replaces those whose
//     hash changed, at once; only a complete listing removes the ones it
//     did not list (a client that stops paginating removes nothing);
//   - a list's first listing is its baseline: it records no change. A
//     definition listed twice in one listing keeps the later version.

// applyPage applies one page of list i, answered at seq; first reports
// whether its request asked for the first page (it had no cursor).
func (s *Store) applyPage(i int, seq uint64, first bool, page mcp.ListPage) {
	ls := &s.cat.lists[i]
	if first || !ls.listed {
		ls.start(first)
	}
	ls.listed = true
	next := s.cat.list(i)
	next.Seq = seq
	next.Pages++
	a := pageApply{
		ls: ls, kind: mcp.ListKinds()[i], name: kindNames()[i], seq: seq, line: s.lineOf(seq),
		defs: next.Definitions, baseline: ls.listings == 1, scratch: &s.cat.scratch,
	}
	for _, item := range page.Items {
		a.item(item)
	}
	next.Complete = page.NextCursor == "" && ls.open
	if next.Complete {
		a.finish()
		ls.open = false
	}
	next.Definitions = a.defs
	s.publish(next, a.changes)
}

// start begins a new listing: a complete one when it begins with a first
// page; one that cannot remove anything when the capture missed its start.
func (ls *listState) start(first bool) {
	ls.listings++
	ls.open = first
	ls.seen, ls.order = nil, nil
	if first {
		ls.seen = make(map[string]struct{})
	}
	ls.notified, ls.pending = ls.pending, 0
	if ls.index == nil {
		ls.index = make(map[string]int)
	}
}

// list returns the published state of list i, or a new empty one.
func (c *catalogState) list(i int) CatalogList {
	method := mcp.ListKinds()[i].Method
	if c.published != nil {
		for _, l := range c.published.Lists {
			if l.Method == method {
				return l
			}
		}
	}
	return CatalogList{Method: method, Kind: kindNames()[i]}
}

// publish makes a new catalog with list l in place of its old state and
// the changes appended, then hands it to catalogChanged.
func (s *Store) publish(l CatalogList, changes []CatalogChange) {
	c := &Catalog{}
	if old := s.cat.published; old != nil {
		c.Lists = slices.Clone(old.Lists)
		// Appending never writes inside an older catalog's length.
		c.Changes, c.Reads, c.ReadsOmitted = old.Changes, old.Reads, old.ReadsOmitted
	}
	if l.Kind == KindSkill {
		s.cat.reads.stale = true
	}
	at := slices.IndexFunc(c.Lists, func(o CatalogList) bool { return o.Method == l.Method })
	if at >= 0 {
		c.Lists[at] = l
	} else {
		at = len(c.Lists)
		for j, o := range c.Lists {
			if mcp.ListMethod(o.Method) > mcp.ListMethod(l.Method) {
				at = j
				break
			}
		}
		c.Lists = slices.Insert(c.Lists, at, l)
	}
	c.Changes = append(c.Changes, changes...)
	s.catalogChanged(c, changes)
}

// pageApply applies the items of one page to a list's definitions, copying
// them before the first modification (the old slice is published).
type pageApply struct {
	ls       *listState
	kind     mcp.ListKind
	name     string
	seq      uint64
	line     int // the capture line of the page's response; 0 unknown
	defs     []Definition
	owned    bool
	baseline bool
	// single is set for one entry outside any listing (a skills/get
	// result): a running listing does not count it as listed.
	single  bool
	changes []CatalogChange
	scratch *[]byte
}

// item applies one element of the page; a non-object is skipped.
func (a *pageApply) item(item jsontext.Value) {
	d, ok := mcp.ParseDefinition(a.kind, item)
	if !ok {
		return
	}
	hash, buf := definitionHash(*a.scratch, item)
	if cap(buf) <= 1<<20 { // a huge definition's buffer is not kept
		*a.scratch = buf
	}
	if a.ls.open && !a.single {
		if _, dup := a.ls.seen[d.Key]; !dup {
			a.ls.seen[d.Key] = struct{}{}
			a.ls.order = append(a.ls.order, d.Key)
		}
	}
	pos, ok := a.ls.index[d.Key]
	if ok && a.defs[pos].Hash == hash {
		return
	}
	a.own()
	def := newDefinition(&d, hash, a.seq, len(item))
	def.Line = a.line
	if ok {
		a.change(ChangeChanged, d.Key, hash, a.defs[pos].Hash)
		a.defs[pos] = def
		return
	}
	a.change(ChangeAdded, d.Key, hash, "")
	a.ls.index[d.Key] = len(a.defs)
	a.defs = append(a.defs, def)
}

// finish completes a listing: definitions it did not list are removed,
// and the rest take the listing's order.
func (a *pageApply) finish() {
	ls := a.ls
	same := len(ls.order) == len(a.defs)
	for i, key := range ls.order {
		same = same && a.defs[i].Key == key
	}
	if same {
		return
	}
	for _, d := range a.defs {
		if _, ok := ls.seen[d.Key]; !ok {
			a.change(ChangeRemoved, d.Key, "", d.Hash)
		}
	}
	defs := make([]Definition, len(ls.order))
	for i, key := range ls.order {
		defs[i] = a.defs[ls.index[key]]
	}
	clear(ls.index)
	for i, key := range ls.order {
		ls.index[key] = i
	}
	a.defs, a.owned = defs, true
}

// own copies the definitions before their first modification.
func (a *pageApply) own() {
	if !a.owned {
		a.defs = slices.Clip(slices.Clone(a.defs))
		a.owned = true
	}
}

// change records a change unless the listing is the list's baseline.
func (a *pageApply) change(what, key, hash, prev string) {
	if a.baseline {
		return
	}
	a.changes = append(a.changes, CatalogChange{
		Seq: a.seq, Line: a.line, Kind: a.name, Key: key, Change: what,
		Hash: hash, PrevHash: prev, Notified: a.ls.notified,
	})
}

// newDefinition keeps what a catalog shows of a parsed definition.
func newDefinition(d *mcp.Definition, hash string, seq uint64, size int) Definition {
	kept := *d
	kept.InputSchema, kept.OutputSchema = clone(d.InputSchema), clone(d.OutputSchema)
	kept.Arguments, kept.Annotations = clone(d.Arguments), clone(d.Annotations)
	return Definition{Definition: kept, Hash: hash, Seq: seq, Size: size}
}
