package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The ids of the skill drift rules: how a session's skills differ from
// those a tools baseline pinned. A skill is identified by its uri within
// the server the session talks to (ext-skills specification/stable/
// skills.mdx § Skill URIs: the pair of server and uri); a changed digest,
// size or file set is drift, as it revokes a content-bound approval
// (§ Verification on Read).
const (
	SkillAdded   = "skill-added"
	SkillRemoved = "skill-removed"
	SkillChanged = "skill-changed"
)

// BaselineSkill is one pinned skill: its entry's uri, name, description
// and files.
type BaselineSkill struct {
	URI         string `json:"uri"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Hash is the entry's definition hash as listed; informational.
	Hash string `json:"hash,omitempty"`
	// Dynamic is set for an entry whose resources is "dynamic"; Files
	// lists the entry's files otherwise.
	Dynamic bool           `json:"dynamic,omitempty"`
	Files   []BaselineFile `json:"files,omitempty"`
}

// BaselineFile is one pinned file of a skill.
type BaselineFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// pinSkill pins one skill entry of the catalog.
func pinSkill(d *store.Definition) BaselineSkill {
	b := BaselineSkill{URI: d.Key, Name: d.Name, Description: d.Description, Hash: d.Hash, Dynamic: d.Skill.Dynamic}
	for _, f := range d.Skill.Files {
		b.Files = append(b.Files, BaselineFile{URI: f.URI, Digest: f.Digest, Size: f.Size})
	}
	return b
}

// SkillList returns the skills list of a catalog (skills/list and
// skills/get entries); nil when the session got neither.
func SkillList(c *store.Catalog) *store.CatalogList {
	if c == nil {
		return nil
	}
	for i := range c.Lists {
		if c.Lists[i].Kind == store.KindSkill {
			return &c.Lists[i]
		}
	}
	return nil
}

// CompareSkills compares pinned skills with a session's, by uri: for each
// skill of new in its order, SkillAdded or one SkillChanged per
// difference (description, "dynamic", each file added, removed, or of
// another digest or size); then SkillRemoved for each pinned skill new
// lacks. A caller whose new listing was incomplete should drop
// SkillRemoved. Equal skills give nil.
func CompareSkills(old []BaselineSkill, new []store.Definition) []ToolChange {
	before := make(map[string]*BaselineSkill, len(old))
	for i := range old {
		before[old[i].URI] = &old[i]
	}
	var out []ToolChange
	listed := make(map[string]bool, len(new))
	for i := range new {
		n := pinSkill(&new[i])
		if listed[n.URI] {
			continue
		}
		listed[n.URI] = true
		o, ok := before[n.URI]
		if !ok {
			out = append(out, ToolChange{Kind: SkillAdded, Tool: n.URI, New: n.Description})
			continue
		}
		out = append(out, compareSkill(o, &n)...)
	}
	for i := range old {
		if !listed[old[i].URI] {
			listed[old[i].URI] = true
			out = append(out, ToolChange{Kind: SkillRemoved, Tool: old[i].URI, Old: old[i].Description})
		}
	}
	return out
}

// compareSkill returns the changes between two versions of one skill.
func compareSkill(o, n *BaselineSkill) []ToolChange {
	var out []ToolChange
	add := func(what, a, b string) {
		out = append(out, ToolChange{Kind: SkillChanged, Tool: n.URI, What: what, Old: a, New: b})
	}
	if o.Description != n.Description {
		add("description", strconv.Quote(o.Description), strconv.Quote(n.Description))
	}
	if o.Dynamic != n.Dynamic {
		add("resources", resourcesText(o), resourcesText(n))
		return out
	}
	files := make(map[string]BaselineFile, len(o.Files))
	for _, f := range o.Files {
		files[f.URI] = f
	}
	seen := make(map[string]bool, len(n.Files))
	for _, f := range n.Files {
		seen[f.URI] = true
		was, ok := files[f.URI]
		switch {
		case !ok:
			add("file "+strconv.Quote(f.URI), absent, fileText(f))
		case was.Digest != f.Digest || was.Size != f.Size:
			add("file "+strconv.Quote(f.URI), fileText(was), fileText(f))
		}
	}
	for _, f := range o.Files {
		if !seen[f.URI] {
			seen[f.URI] = true
			add("file "+strconv.Quote(f.URI), fileText(f), absent)
		}
	}
	return out
}

func fileText(f BaselineFile) string {
	return fmt.Sprintf("%s (%d bytes)", digestText(f.Digest), f.Size)
}

func resourcesText(s *BaselineSkill) string {
	if s.Dynamic {
		return strconv.Quote(mcp.SkillsDynamic)
	}
	return fmt.Sprintf("%d files", len(s.Files))
}

// CompareSkillCatalogs compares the skills of two sessions' catalogs (as
// CompareSkills does), for views that diff sessions: a catalog without
// skills counts as none, and when new's latest skills/list was incomplete
// (or it had only skills/get entries) no skill is reported removed.
func CompareSkillCatalogs(old, new *store.Catalog) []ToolChange {
	var pinned []BaselineSkill
	if l := SkillList(old); l != nil {
		for i := range l.Definitions {
			pinned = append(pinned, pinSkill(&l.Definitions[i]))
		}
	}
	var defs []store.Definition
	l := SkillList(new)
	if l != nil {
		defs = l.Definitions
	}
	changes := CompareSkills(pinned, defs)
	if l == nil || !l.Complete {
		changes = slices.DeleteFunc(changes, func(c ToolChange) bool { return c.Kind == SkillRemoved })
	}
	if len(changes) == 0 {
		return nil
	}
	return changes
}
