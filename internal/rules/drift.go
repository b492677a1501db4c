package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The ids of the tool drift rules: how a session's tools differ from a
// pinned catalog (a tools baseline, ToolBaseline). internal/check raises
// them when check is given --tools-baseline; without one they raise
// nothing, whatever the registry says.
const (
	ToolAdded              = "tool-added"
	ToolRemoved            = "tool-removed"
	ToolDescriptionChanged = "tool-description-changed"
	ToolSchemaLoosened     = "tool-schema-loosened"
	ToolSchemaTightened    = "tool-schema-tightened"
	ToolAnnotationsChanged = "tool-annotations-changed"
)

// DriftIDs returns the ids of the tool drift rules, in registry order.
func DriftIDs() []string {
	return []string{ToolAdded, ToolRemoved, ToolDescriptionChanged, ToolSchemaLoosened, ToolSchemaTightened, ToolAnnotationsChanged,
		SkillAdded, SkillRemoved, SkillChanged}
}

func driftRules() []finding.Rule {
	const c = finding.Drift
	const doc = "docs/tools.md (Drift); MCP 2025-11-25 server/tools (Tool, ToolAnnotations)"
	const skillDoc = "docs/tools.md (Drift); " + skillsSpec + "§ Skill URIs; § Verification on Read"
	return []finding.Rule{
		{ID: ToolAdded, Category: c, Severity: finding.Warning,
			Summary: "the server lists a tool the tools baseline does not have",
			Help: "Raised by mcptrail check --tools-baseline FILE for every tool the session's latest tools/list shows " +
				"that the baseline (mcptrail tools --save-baseline) does not. A new tool widens what an agent may do.",
			Spec: doc},
		{ID: ToolRemoved, Category: c, Severity: finding.Error,
			Summary: "a tool of the tools baseline is gone from the server's list",
			Help: "Raised by mcptrail check --tools-baseline FILE for every baseline tool missing from the session's latest " +
				"complete tools/list (every page read). Clients that call it will fail.",
			Spec: doc},
		{ID: ToolDescriptionChanged, Category: c, Severity: finding.Error,
			Summary: "a tool's title or description (or an argument's) differs from the tools baseline",
			Help: "Raised by mcptrail check --tools-baseline FILE. The model reads a tool's description as instructions: a server " +
				"update that rewrites it (the \"rug pull\") can steer the agent. The message holds the old and the new text.",
			Spec: doc},
		{ID: ToolSchemaLoosened, Category: c, Severity: finding.Warning,
			Summary: "a tool's inputSchema accepts more than in the tools baseline",
			Help: "Raised by mcptrail check --tools-baseline FILE when a required argument was dropped, an argument's type or enum widened, an optional argument added, or " +
				"additionalProperties opened (false to true or absent). Old calls still validate; the tool takes more input.",
			Spec: doc},
		{ID: ToolSchemaTightened, Category: c, Severity: finding.Error,
			Summary: "a tool's inputSchema accepts less than in the tools baseline",
			Help: "Raised by mcptrail check --tools-baseline FILE when a required argument was added, an argument removed, its type or enum narrowed (or changed to an " +
				"unrelated one), or additionalProperties closed (to false). Calls that were valid may now be rejected.",
			Spec: doc},
		{ID: ToolAnnotationsChanged, Category: c, Severity: finding.Error,
			Summary: "a tool's annotations differ from the tools baseline (e.g. destructiveHint false to true)",
			Help: "Raised by mcptrail check --tools-baseline FILE. Clients decide on confirmation prompts from readOnlyHint, " +
				"destructiveHint, idempotentHint and openWorldHint. One finding per annotation, with its old and new value (absent when not sent).",
			Spec: doc},
		{ID: SkillAdded, Category: c, Severity: finding.Warning,
			Summary: "the server lists a skill the tools baseline does not have",
			Help: "Raised by mcptrail check --tools-baseline FILE for every skill (skills/list or skills/get entry, by uri) the " +
				"session shows that the baseline does not. A new skill is new instructions an agent may load.",
			Spec: skillDoc},
		{ID: SkillRemoved, Category: c, Severity: finding.Warning,
			Summary: "a skill of the tools baseline is gone from the server's list",
			Help: "Raised by mcptrail check --tools-baseline FILE for every pinned skill missing from the session's latest " +
				"complete skills/list (and from every skills/get).",
			Spec: skillDoc},
		{ID: SkillChanged, Category: c, Severity: finding.Error,
			Summary: "a skill's files (digest, size, file set) or description differ from the tools baseline",
			Help: "Raised by mcptrail check --tools-baseline FILE, one finding per change: a file whose digest or size changed, " +
				"a file added or removed, resources turned \"dynamic\" or back, a new description. A changed file set revokes a " +
				"content-bound approval: what the user approved is not what the server now serves.",
			Spec: skillDoc},
	}
}

// ToolChange is one difference between two tool catalogs.
type ToolChange struct {
	// Kind is the id of the drift rule the change raises (ToolAdded ...).
	Kind string `json:"kind"`
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// What names what changed: "description", "title", "argument q
	// description", "required argument q", "argument q type",
	// "additionalProperties", "annotation destructiveHint"; "" for a tool
	// added or removed.
	What string `json:"what,omitempty"`
	// Old and New are the text before and after: a description, a JSON
	// value (`"string"`, `["q"]`, `false`), or "absent". For a tool added,
	// New is its description and Old ""; for one removed, the reverse.
	Old string `json:"old"`
	New string `json:"new"`
}

// Message returns the change as a finding message, with the old and the
// new text.
func (c *ToolChange) Message() string {
	switch c.Kind {
	case ToolAdded:
		return fmt.Sprintf("tool %s was added (not in the tools baseline); description %s", c.Tool, strconv.Quote(c.New))
	case ToolRemoved:
		return fmt.Sprintf("tool %s was removed (in the tools baseline); description was %s", c.Tool, strconv.Quote(c.Old))
	case ToolDescriptionChanged:
		return fmt.Sprintf("tool %s %s changed: %s → %s", c.Tool, c.What, strconv.Quote(c.Old), strconv.Quote(c.New))
	case ToolSchemaLoosened:
		return fmt.Sprintf("tool %s inputSchema loosened: %s: %s → %s", c.Tool, c.What, c.Old, c.New)
	case ToolSchemaTightened:
		return fmt.Sprintf("tool %s inputSchema tightened: %s: %s → %s", c.Tool, c.What, c.Old, c.New)
	case SkillAdded:
		return fmt.Sprintf("skill %s was added (not in the tools baseline); description %s", c.Tool, strconv.Quote(c.New))
	case SkillRemoved:
		return fmt.Sprintf("skill %s was removed (in the tools baseline); description was %s", c.Tool, strconv.Quote(c.Old))
	case SkillChanged:
		return fmt.Sprintf("skill %s %s changed: %s → %s", c.Tool, c.What, c.Old, c.New)
	}
	return fmt.Sprintf("tool %s %s changed: %s → %s", c.Tool, c.What, c.Old, c.New)
}

// CompareTools compares two tool catalogs, old (a baseline, or an earlier
// session) and new, by tool name, and returns what changed: for each tool
// of new in its order, ToolAdded or the changes of its title, description,
// inputSchema and annotations; then ToolRemoved for each tool of old that
// new lacks, in old's order. Equal catalogs give nil. A caller whose new
// listing was incomplete (not every page read) should drop ToolRemoved.
// When a name repeats, the later definition counts. outputSchema and
// members other than those are not compared.
func CompareTools(old, new []mcp.Definition) []ToolChange {
	before := make(map[string]*mcp.Definition, len(old))
	for i := range old {
		before[old[i].Name] = &old[i]
	}
	last := make(map[string]int, len(new))
	for i := range new {
		last[new[i].Name] = i
	}
	var out []ToolChange
	for i := range new {
		d := &new[i]
		if last[d.Name] != i {
			continue
		}
		o, ok := before[d.Name]
		if !ok {
			out = append(out, ToolChange{Kind: ToolAdded, Tool: d.Name, New: d.Description})
			continue
		}
		out = append(out, compareTool(o, d)...)
	}
	done := make(map[string]bool, len(old))
	for i := range old {
		name := old[i].Name
		if _, listed := last[name]; listed || done[name] {
			continue
		}
		done[name] = true
		out = append(out, ToolChange{Kind: ToolRemoved, Tool: name, Old: before[name].Description})
	}
	return out
}

// compareTool returns the changes between two versions of one tool.
func compareTool(o, n *mcp.Definition) []ToolChange {
	var out []ToolChange
	text := func(what, a, b string) {
		if a != b {
			out = append(out, ToolChange{Kind: ToolDescriptionChanged, Tool: n.Name, What: what, Old: a, New: b})
		}
	}
	text("title", o.Title, n.Title)
	text("description", o.Description, n.Description)
	for _, c := range CompareSchemas(o.InputSchema, n.InputSchema) {
		c.Tool = n.Name
		out = append(out, c)
	}
	for _, c := range compareAnnotations(o.Annotations, n.Annotations) {
		c.Tool = n.Name
		out = append(out, c)
	}
	return out
}

// compareAnnotations returns a ToolAnnotationsChanged change for each
// annotation whose value differs, by name; absent annotations read as
// {}, and a member given twice as its last (mcp.LastMembers, as clients
// read it). Annotations that are not a JSON object are compared as text.
func compareAnnotations(old, new jsontext.Value) []ToolChange {
	o, okOld := annotationMembers(old)
	n, okNew := annotationMembers(new)
	if !okOld || !okNew {
		if a, b := rawText(old), rawText(new); a != b {
			return []ToolChange{{Kind: ToolAnnotationsChanged, What: "annotations", Old: a, New: b}}
		}
		return nil
	}
	names := memberNames(o)
	for name := range n {
		if _, ok := o[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var out []ToolChange
	for _, name := range names {
		if a, b := memberText(o, name), memberText(n, name); a != b {
			out = append(out, ToolChange{Kind: ToolAnnotationsChanged, What: "annotation " + name, Old: a, New: b})
		}
	}
	return out
}

// annotationMembers returns the members of an annotations object, each
// name with its last value; {} for nil, false when it is not an object.
func annotationMembers(raw jsontext.Value) (map[string]jsontext.Value, bool) {
	if raw == nil {
		return map[string]jsontext.Value{}, true
	}
	m := mcp.LastMembers(raw)
	return m, m != nil
}

// memberText is the canonical text of member name of m; "absent" when
// there is none.
func memberText(m map[string]jsontext.Value, name string) string {
	v, ok := m[name]
	if !ok {
		return absent
	}
	return rawText(v)
}

// CompareCatalogs compares the tools of two sessions' catalogs (as
// CompareTools does), for views that diff sessions: a catalog without a
// tools/list counts as no tools, and when new's latest listing was
// incomplete no tool is reported removed.
func CompareCatalogs(old, new *store.Catalog) []ToolChange {
	changes := CompareTools(ToolDefinitions(ToolList(old)), ToolDefinitions(ToolList(new)))
	if l := ToolList(new); l != nil && l.Complete {
		return changes
	}
	changes = slices.DeleteFunc(changes, func(c ToolChange) bool { return c.Kind == ToolRemoved })
	if len(changes) == 0 {
		return nil
	}
	return changes
}

// ToolDefinitions returns the definitions of a tools/list (ToolList) for
// CompareTools; nil for a nil list.
func ToolDefinitions(l *store.CatalogList) []mcp.Definition {
	if l == nil {
		return nil
	}
	out := make([]mcp.Definition, len(l.Definitions))
	for i := range l.Definitions {
		out[i] = l.Definitions[i].Definition
	}
	return out
}
