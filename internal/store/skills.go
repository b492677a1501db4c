package store

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// skillAnswered applies the entry of a skills/get result to the catalog's
// skills list (ext-skills specification/stable/skills.mdx § Getting a
// Skill: "identical in shape and meaning to an entry of skills/list"). It
// adds or replaces that one skill, without starting or completing a
// listing (a listing running meanwhile does not count it as listed). The
// first entry of a list that had none is its baseline.
func (s *Store) skillAnswered(c *Call, seq uint64, result jsontext.Value) {
	items := mcp.SkillItems(mcp.MethodSkillsGet, result)
	if len(items) == 0 {
		return
	}
	i := mcp.ListMethod(mcp.MethodSkillsList)
	ls := &s.cat.lists[i]
	baseline := !ls.listed
	if !ls.listed {
		ls.start(false)
		ls.listed = true
	}
	next := s.cat.list(i)
	if baseline {
		next.Seq = seq
	}
	a := pageApply{
		ls: ls, kind: mcp.ListKinds()[i], name: kindNames()[i], seq: seq, line: s.lineOf(seq),
		defs: next.Definitions, baseline: baseline, scratch: &s.cat.scratch, single: true,
	}
	a.item(items[0])
	if !a.owned {
		return // the entry held already, or not an object
	}
	next.Definitions = a.defs
	s.cat.answering = c.Index
	s.publish(next, a.changes)
}
