package rules

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// The tools baseline file, written by mcptrail tools --save-baseline and
// read by check --tools-baseline (docs/tools.md describes it):
//
//	{
//	  "format": "mcptrail-tools-baseline",
//	  "version": 1,
//	  "session": "<the session the catalog was taken from>",
//	  "tools": [
//	    {"name": "search", "hash": "<sha256 hex>", "definition": {"name": "search", ...}}
//	  ]
//	}
//
// definition holds what the comparison reads (name, title, description,
// inputSchema, outputSchema, annotations); hash is the definition hash
// mcptrail tools printed for the whole definition as listed (other members
// included), for people and scripts: reading ignores it.
const (
	ToolBaselineFormat  = "mcptrail-tools-baseline"
	ToolBaselineVersion = 1
)

// maxToolBaseline bounds the size of a tools baseline file read.
const maxToolBaseline = 64 << 20

// ErrNotToolBaseline is returned by ReadToolBaseline for a JSON document
// whose format member is not ToolBaselineFormat.
var ErrNotToolBaseline = errors.New("not an mcptrail tools baseline")

// ToolBaseline is a pinned tool catalog.
type ToolBaseline struct {
	// Format is ToolBaselineFormat; Version the file's version.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Session is the id of the session the catalog was taken from; ""
	// when unknown.
	Session string `json:"session,omitempty"`
	// Tools are the pinned tools, in the order the session listed them.
	Tools []BaselineTool `json:"tools"`
	// Skills are the pinned skills (skills/list and skills/get entries),
	// in catalog order; absent when the session had none. A reader that
	// predates them ignores the member.
	Skills []BaselineSkill `json:"skills,omitempty"`
}

// BaselineTool is one pinned tool.
type BaselineTool struct {
	Name string `json:"name"`
	// Hash is the tool's definition hash as listed (store.DefinitionHash
	// of the whole definition); informational.
	Hash string `json:"hash,omitempty"`
	// Definition is the tool definition the comparison reads.
	Definition jsontext.Value `json:"definition"`
}

// NewToolBaseline pins the tools and skills of a catalog (its tools/list
// and skills list). Each tool definition keeps the members the comparison
// reads; each skill its files' digests and sizes.
func NewToolBaseline(session string, tools, skills []store.Definition) *ToolBaseline {
	b := &ToolBaseline{Format: ToolBaselineFormat, Version: ToolBaselineVersion, Session: session, Tools: []BaselineTool{}}
	for i := range tools {
		d := &tools[i]
		b.Tools = append(b.Tools, BaselineTool{Name: d.Name, Hash: d.Hash, Definition: pinnedDefinition(&d.Definition)})
	}
	for i := range skills {
		b.Skills = append(b.Skills, pinSkill(&skills[i]))
	}
	return b
}

// pinnedDefinition rebuilds a tool definition from the members the
// comparison reads, in the order the MCP schema lists them.
func pinnedDefinition(d *mcp.Definition) jsontext.Value {
	var enc jsontext.Value
	enc = append(enc, '{')
	add := func(name string, v jsontext.Value) {
		if v == nil {
			return
		}
		if len(enc) > 1 {
			enc = append(enc, ',')
		}
		q, _ := jsontext.AppendQuote(nil, name)
		enc = append(append(append(enc, q...), ':'), v...)
	}
	str := func(s string) jsontext.Value {
		q, _ := jsontext.AppendQuote(nil, s)
		return q
	}
	add("name", str(d.Name))
	if d.Title != "" {
		add("title", str(d.Title))
	}
	if d.Description != "" {
		add("description", str(d.Description))
	}
	add("inputSchema", d.InputSchema)
	add("outputSchema", d.OutputSchema)
	add("annotations", d.Annotations)
	return append(enc, '}')
}

// Write writes b as indented JSON followed by a newline.
func (b *ToolBaseline) Write(w io.Writer) error {
	if err := json.MarshalWrite(w, b, jsontext.WithIndent("  "), json.Deterministic(true)); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ReadToolBaseline reads a tools baseline file. A document of another
// format is ErrNotToolBaseline; one of a newer version, a tool whose
// definition is not an object naming it, or a name pinned twice is an
// error naming the problem.
func ReadToolBaseline(r io.Reader) (*ToolBaseline, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxToolBaseline+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxToolBaseline {
		return nil, fmt.Errorf("decoding tools baseline: larger than %d bytes", maxToolBaseline)
	}
	// The format member is read first, so another file (a capture, a
	// findings baseline) is named as not a tools baseline.
	var probe struct {
		Format jsontext.Value `json:"format"`
	}
	if err := json.UnmarshalDecode(jsontext.NewDecoder(bytes.NewReader(data)), &probe); err != nil {
		return nil, fmt.Errorf("%w (not a JSON object with a format member)", ErrNotToolBaseline)
	}
	if want := `"` + ToolBaselineFormat + `"`; string(probe.Format) != want {
		return nil, fmt.Errorf("%w (format is %s, want %s)", ErrNotToolBaseline, rawText(probe.Format), want)
	}
	var b ToolBaseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("decoding tools baseline: %w", err)
	}
	if b.Version < 1 || b.Version > ToolBaselineVersion {
		return nil, fmt.Errorf("tools baseline version %d: this mcptrail reads version %d", b.Version, ToolBaselineVersion)
	}
	seen := make(map[string]bool, len(b.Tools))
	for i, t := range b.Tools {
		d, ok := mcp.ParseDefinition(mcp.ListKinds()[0], t.Definition)
		switch {
		case !ok:
			return nil, fmt.Errorf("tools baseline tool %d (%q): definition is not a JSON object", i, t.Name)
		case d.Name != t.Name:
			return nil, fmt.Errorf("tools baseline tool %d: name %q, but its definition names %q", i, t.Name, d.Name)
		case seen[t.Name]:
			return nil, fmt.Errorf("tools baseline: tool %q is pinned twice", t.Name)
		}
		seen[t.Name] = true
	}
	pinned := make(map[string]bool, len(b.Skills))
	for i, s := range b.Skills {
		if s.URI == "" || pinned[s.URI] {
			return nil, fmt.Errorf("tools baseline skill %d: uri %q is empty or pinned twice", i, s.URI)
		}
		pinned[s.URI] = true
	}
	return &b, nil
}

// Definitions returns the pinned tools as definitions, for CompareTools.
func (b *ToolBaseline) Definitions() []mcp.Definition {
	out := make([]mcp.Definition, 0, len(b.Tools))
	for _, t := range b.Tools {
		if d, ok := mcp.ParseDefinition(mcp.ListKinds()[0], t.Definition); ok {
			out = append(out, d)
		}
	}
	return out
}

// ToolList returns the tools/list of a catalog; nil when the session never
// got a tools/list result. Its Definitions are the tools as of the latest
// listing, and only a Complete listing (read from its first page to its
// last) can tell that a tool was removed.
func ToolList(c *store.Catalog) *store.CatalogList {
	if c == nil {
		return nil
	}
	for i := range c.Lists {
		if c.Lists[i].Kind == store.KindTool {
			return &c.Lists[i]
		}
	}
	return nil
}
