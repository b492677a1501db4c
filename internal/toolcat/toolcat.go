// Package toolcat is the tool catalog view: the tools a session's server
// listed in its latest tools/list, as `mcptrail tools` prints them (a table
// or JSON, docs/tools.md). It sits beside the other views: it reads a store
// snapshot (through rules.ToolList, which the drift rules read too) and
// writes; it keeps no state, and a Catalog is not modified once made.
package toolcat

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/termtable"
	"github.com/mcptrail/mcptrail/internal/termtext"
)

// Catalog is the tool catalog of one session.
type Catalog struct {
	// Session is the session id.
	Session string
	// Tools are the definitions of the latest listing, in its order;
	// nil when the session never listed its tools.
	Tools []store.Definition
	// Listed reports whether the session got a tools/list result.
	Listed bool
	// Complete reports whether its latest listing was read from its
	// first page to its last.
	Complete bool
	// Skills are the skills of the session's skills/list and skills/get
	// results (the Skills extension), in catalog order; nil when it got
	// none.
	Skills []store.Definition
	// Apps are the app tools (a tool naming a UI resource) and whether
	// the host read their resource; nil when no tool names one.
	Apps []store.AppTool
}

// Of returns the catalog of snap's session.
func Of(snap *store.Snapshot) *Catalog {
	c := &Catalog{Session: snap.Session.ID}
	if l := rules.ToolList(snap.Catalog); l != nil {
		c.Tools, c.Listed, c.Complete = l.Definitions, true, l.Complete
	}
	if l := rules.SkillList(snap.Catalog); l != nil {
		c.Skills = l.Definitions
	}
	c.Apps = snap.Apps()
	return c
}

// WriteSkills writes one row per skill, as WriteTable does for tools:
// its uri, name, files (their count, or dynamic) and the first 12 hex
// digits of its entry's hash. A catalog without skills writes nothing; a
// caller that wrote the tools table first separates the two.
func (c *Catalog) WriteSkills(w io.Writer, color bool, width int) error {
	if len(c.Skills) == 0 {
		return nil
	}
	t := termtable.Table{Color: color, Columns: []termtable.Column{
		{Header: "SKILL", Cut: true, Min: termtable.NameMin},
		{Header: "NAME", Cut: true, Drop: 2, Elide: true},
		{Header: "FILES", Drop: 1},
		{Header: "HASH", Drop: 3, Yield: true},
	}}
	for i := range c.Skills {
		d := &c.Skills[i]
		files := fmt.Sprintf("%d", len(d.Skill.Files))
		switch {
		case d.Skill.Dynamic:
			files = "dynamic"
		case d.Skill.Problem != "":
			files = "invalid"
		}
		t.AddText(d.Key, d.Name, files, shortHash(d.Hash))
	}
	if err := t.Render(w, width); err != nil {
		return fmt.Errorf("writing skills: %w", err)
	}
	return nil
}

// WriteTable writes one row per tool for a terminal of width columns (0:
// whole), coloured when color: name, title, annotations, arguments and the
// first 12 hex digits of the definition hash.
func (c *Catalog) WriteTable(w io.Writer, color bool, width int) error {
	t := termtable.Table{Color: color, Columns: []termtable.Column{
		{Header: "NAME", Cut: true, Min: termtable.NameMin},
		{Header: "TITLE", Cut: true, Drop: 2, Elide: true},
		{Header: "ANNOTATIONS", Cut: true, Drop: 1, Elide: true},
		{Header: "ARGUMENTS", Cut: true, Min: 12},
		{Header: "HASH", Drop: 3, Yield: true},
	}}
	for i := range c.Tools {
		d := &c.Tools[i]
		t.AddText(d.Name, d.Title, annotationsText(d.Annotations), argumentsText(d.InputSchema), shortHash(d.Hash))
	}
	if err := t.Render(w, width); err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	return nil
}

// argumentsText renders an inputSchema's arguments: "q*:string limit:integer".
func argumentsText(schema jsontext.Value) string {
	var parts []string
	for _, a := range rules.Arguments(schema) {
		s := a.Name
		if a.Required {
			s += "*"
		}
		if a.Type != "" {
			s += ":" + a.Type
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// annotationsText renders annotations: a true hint by its name without
// "Hint", others as name=value ("readOnly destructive=false").
func annotationsText(raw jsontext.Value) string {
	m := mcp.LastMembers(raw) // a repeated hint counts as its last, as clients read it
	if m == nil {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		short := strings.TrimSuffix(name, "Hint")
		if string(m[name]) == "true" && short != name {
			parts = append(parts, short)
			continue
		}
		parts = append(parts, short+"="+string(m[name]))
	}
	return strings.Join(parts, " ")
}

// shortHash is the first 12 hex digits of a definition hash.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// catalogJSON is what tools --json writes (docs/tools.md).
type catalogJSON struct {
	Session string `json:"session"`
	// Listed reports whether the session got a tools/list result;
	// Complete whether its latest listing was read from first to last
	// page.
	Listed   bool       `json:"listed"`
	Complete bool       `json:"complete"`
	Tools    []toolJSON `json:"tools"`
	// Skills and Apps are absent when the session had none.
	Skills []skillJSON `json:"skills,omitempty"`
	Apps   []appJSON   `json:"apps,omitempty"`
}

// skillJSON is one skill of catalogJSON.
type skillJSON struct {
	URI         string `json:"uri"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Dynamic is set for resources "dynamic"; Files lists the files
	// otherwise.
	Dynamic bool                 `json:"dynamic,omitempty"`
	Files   []rules.BaselineFile `json:"files,omitempty"`
	Hash    string               `json:"hash"`
	Seq     uint64               `json:"seq"`
	Line    int                  `json:"line,omitempty"`
}

// appJSON is one app tool of catalogJSON.
type appJSON struct {
	Tool        string `json:"tool"`
	ResourceURI string `json:"resource_uri"`
	Calls       int    `json:"calls"`
	Reads       int    `json:"reads"`
	FailedReads int    `json:"failed_reads,omitempty"`
	MimeType    string `json:"mime_type,omitempty"`
}

// toolJSON is one tool of catalogJSON.
type toolJSON struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	Annotations  jsontext.Value   `json:"annotations,omitempty"`
	Arguments    []rules.Argument `json:"arguments"`
	InputSchema  jsontext.Value   `json:"inputSchema,omitempty"`
	OutputSchema jsontext.Value   `json:"outputSchema,omitempty"`
	Hash         string           `json:"hash"`
	Seq          uint64           `json:"seq"`
	Line         int              `json:"line,omitempty"`
}

// toolOf is the tool d as WriteJSON writes it.
func toolOf(d *store.Definition) toolJSON {
	args := rules.Arguments(d.InputSchema)
	if args == nil {
		args = []rules.Argument{}
	}
	return toolJSON{Name: d.Name, Title: d.Title, Description: d.Description, Annotations: d.Annotations,
		Arguments: args, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Hash: d.Hash, Seq: d.Seq, Line: d.Line}
}

// ToolJSON returns tool i of the catalog as WriteJSON writes it in its
// tools member, a value to marshal (mcptrail mcp's tools tool).
func (c *Catalog) ToolJSON(i int) any {
	t := toolOf(&c.Tools[i])
	return &t
}

// skillOf is the skill d as WriteJSON writes it.
func skillOf(d *store.Definition) skillJSON {
	s := skillJSON{URI: d.Key, Name: d.Name, Description: d.Description, Dynamic: d.Skill.Dynamic, Hash: d.Hash, Seq: d.Seq, Line: d.Line}
	for _, f := range d.Skill.Files {
		s.Files = append(s.Files, rules.BaselineFile{URI: f.URI, Digest: f.Digest, Size: f.Size})
	}
	return s
}

// appOf is the app tool a as WriteJSON writes it.
func appOf(a *store.AppTool) appJSON {
	return appJSON{Tool: a.Tool, ResourceURI: a.ResourceURI, Calls: a.Calls, Reads: a.Reads, FailedReads: a.Failed, MimeType: a.MimeType}
}

// SkillJSON and AppJSON return skill i and app tool i of the catalog as
// WriteJSON writes them in its skills and apps members.
func (c *Catalog) SkillJSON(i int) any {
	s := skillOf(&c.Skills[i])
	return &s
}

func (c *Catalog) AppJSON(i int) any {
	a := appOf(&c.Apps[i])
	return &a
}

// WriteJSON writes the catalog as one JSON object, full hashes included,
// escaped for a terminal (termtext).
func (c *Catalog) WriteJSON(w io.Writer) error {
	out := catalogJSON{Session: c.Session, Listed: c.Listed, Complete: c.Complete, Tools: []toolJSON{}}
	for i := range c.Tools {
		out.Tools = append(out.Tools, toolOf(&c.Tools[i]))
	}
	for i := range c.Skills {
		out.Skills = append(out.Skills, skillOf(&c.Skills[i]))
	}
	for i := range c.Apps {
		out.Apps = append(out.Apps, appOf(&c.Apps[i]))
	}
	b, err := json.Marshal(&out, jsontext.WithIndent("  "))
	if err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	jw := termtext.NewJSONWriter(w)
	if _, err := jw.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	if err := jw.Flush(); err != nil {
		return fmt.Errorf("writing tools: %w", err)
	}
	return nil
}
