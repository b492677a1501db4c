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
}

// Of returns the catalog of snap's session.
func Of(snap *store.Snapshot) *Catalog {
	c := &Catalog{Session: snap.Session.ID}
	if l := rules.ToolList(snap.Catalog); l != nil {
		c.Tools, c.Listed, c.Complete = l.Definitions, true, l.Complete
	}
	return c
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

// WriteJSON writes the catalog as one JSON object, full hashes included,
// escaped for a terminal (termtext).
func (c *Catalog) WriteJSON(w io.Writer) error {
	out := catalogJSON{Session: c.Session, Listed: c.Listed, Complete: c.Complete, Tools: []toolJSON{}}
	for i := range c.Tools {
		d := &c.Tools[i]
		args := rules.Arguments(d.InputSchema)
		if args == nil {
			args = []rules.Argument{}
		}
		out.Tools = append(out.Tools, toolJSON{Name: d.Name, Title: d.Title, Description: d.Description, Annotations: d.Annotations,
			Arguments: args, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema, Hash: d.Hash, Seq: d.Seq, Line: d.Line})
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
