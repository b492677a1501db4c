package check

import (
	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
)

// drift returns the findings of the tool drift rules, ungraded: how the
// session's latest tools/list differs from the pinned catalog. A tool
// added or changed sits at the response that first listed its current
// version; a tool removed at the latest page of the list, and only when
// that listing was complete. A session that never listed its tools has
// nothing to compare.
func drift(snap *store.Snapshot, base *rules.ToolBaseline) []finding.Finding {
	if base == nil {
		return nil
	}
	out := skillDrift(snap, base)
	list := rules.ToolList(snap.Catalog)
	if list == nil {
		return out
	}
	at := make(map[string]*store.Definition, len(list.Definitions))
	for i := range list.Definitions {
		at[list.Definitions[i].Name] = &list.Definitions[i]
	}
	for _, c := range rules.CompareTools(base.Definitions(), rules.ToolDefinitions(list)) {
		seq, line := list.Seq, 0
		if d := at[c.Tool]; d != nil {
			seq, line = d.Seq, d.Line
		} else if !list.Complete {
			continue // an incomplete listing cannot tell a tool is gone
		}
		f := finding.New(c.Kind, seq, "%s", c.Message())
		f.Line = line
		out = append(out, f)
	}
	return out
}

// skillDrift returns the findings of the skill drift rules, ungraded: how
// the session's skills differ from the pinned ones. A skill added or
// changed sits at the response that gave its current entry; a skill
// removed at the latest skills/list page, and only when that listing was
// complete. A session without skills compares nothing: a client that
// never asked for them says nothing of what the server serves.
func skillDrift(snap *store.Snapshot, base *rules.ToolBaseline) []finding.Finding {
	list := rules.SkillList(snap.Catalog)
	if list == nil {
		return nil
	}
	at := make(map[string]*store.Definition, len(list.Definitions))
	for i := range list.Definitions {
		at[list.Definitions[i].Key] = &list.Definitions[i]
	}
	var out []finding.Finding
	for _, c := range rules.CompareSkills(base.Skills, list.Definitions) {
		seq, line := list.Seq, 0
		if d := at[c.Tool]; d != nil {
			seq, line = d.Seq, d.Line
		} else if !list.Complete {
			continue // an incomplete listing cannot tell a skill is gone
		}
		f := finding.New(c.Kind, seq, "%s", c.Message())
		f.Line = line
		out = append(out, f)
	}
	return out
}
