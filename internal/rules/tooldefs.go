package rules

import (
	"bytes"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/store"
)

// toolName is the tool name the tools page allows (2025-11-25 on): 1 to
// 128 ASCII letters, digits, underscores, hyphens and dots.
const toolName = `^[A-Za-z0-9_.-]{1,128}$`

// Tools checks the tool definitions of the session's catalog: their names,
// their inputSchemas, and changes no list_changed announced although the
// server could have. It reads
// only snapshots (Finish); its state is a cache of schema verdicts by
// definition hash, and it belongs to one store.
type Tools struct {
	name    *regexp.Regexp // toolName
	verdict map[string]string
}

// NewTools returns the tool-definition rules.
func NewTools() *Tools {
	return &Tools{name: regexp.MustCompile(toolName), verdict: map[string]string{}}
}

// Check implements store.Check; the tool rules read only the catalog.
func (*Tools) Check(*store.Frame, func(finding.Finding)) {}

// Finish runs the tool rules on the snapshot's catalog.
func (t *Tools) Finish(s *store.Snapshot, raise func(finding.Finding)) {
	if s.Catalog == nil {
		return
	}
	for _, l := range s.Catalog.Lists {
		if l.Kind != store.KindTool {
			continue
		}
		for i := range l.Definitions {
			t.definition(&l.Definitions[i], raise)
		}
	}
	could := -1 // whether the server could notify: unknown until needed
	for _, c := range s.Catalog.Changes {
		if c.Kind != store.KindTool || c.Change != store.ChangeChanged || c.Notified != 0 {
			continue
		}
		if could < 0 {
			could = btoi(canNotify(&s.Calls))
		}
		if could == 1 {
			f := finding.New(finding.ToolDefinitionChanged, c.Seq,
				"tool %q changed without notifications/tools/list_changed since the listing before", c.Key)
			f.Line = c.Line
			raise(f)
		}
	}
}

// canNotify reports whether the server had a way to send list_changed: a
// legacy session (initialize) may notify at any time, a 2026-07-28 server
// only on a subscriptions/listen stream the client opened (spec 1.6).
func canNotify(calls *store.Calls) bool {
	for i := range calls.Len() {
		if m := calls.At(i).Method; m == "initialize" || m == "subscriptions/listen" {
			return true
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// definition checks one tool's name and inputSchema.
func (t *Tools) definition(d *store.Definition, raise func(finding.Finding)) {
	at := func(f finding.Finding) finding.Finding {
		f.Line = d.Line
		return f
	}
	if !t.name.MatchString(d.Key) {
		raise(at(finding.New(finding.ToolNameInvalid, d.Seq,
			"tool name %q (%d bytes) is not 1-128 of A-Z a-z 0-9 _ - .", d.Key, len(d.Key))))
	}
	why, ok := t.verdict[d.Hash]
	if !ok {
		why = schemaProblem(d.InputSchema)
		t.verdict[d.Hash] = why
	}
	if why != "" {
		raise(at(finding.New(finding.ToolSchemaInvalid, d.Seq, "tool %q inputSchema %s", d.Key, why)))
	}
}

// schemaProblem says why a tool's inputSchema is not a valid JSON Schema
// object, or "". A schema that refers to a document mcptrail cannot load
// (a remote $ref, an unknown $schema) is not judged.
func schemaProblem(raw []byte) string {
	if len(raw) == 0 {
		return "is missing"
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return "is not JSON"
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return "is not an object"
	}
	if obj["type"] != "object" {
		return `does not have type "object" at the root`
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mcptrail:input", doc); err != nil {
		return "does not compile: " + err.Error()
	}
	if _, err := c.Compile("mcptrail:input"); err != nil {
		var load *jsonschema.LoadURLError
		var scheme *jsonschema.UnsupportedURLSchemeError
		if errors.As(err, &load) || errors.As(err, &scheme) {
			return ""
		}
		return "does not compile: " + compileProblem(err)
	}
	return ""
}

// compileProblem describes a compile error in one line: for a schema the
// metaschema rejects, the locations in the schema that fail.
func compileProblem(err error) string {
	var meta *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if !errors.As(err, &meta) || !errors.As(meta.Err, &ve) {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return msg
	}
	var at []string
	leafLocations(ve, &at)
	slices.Sort(at)
	return "not valid JSON Schema at " + strings.Join(slices.Compact(at), ", ")
}

// leafLocations appends the schema location ("/properties/id/type") of
// each leaf of ve.
func leafLocations(ve *jsonschema.ValidationError, at *[]string) {
	if len(ve.Causes) == 0 {
		*at = append(*at, "/"+strings.Join(ve.InstanceLocation, "/"))
		return
	}
	for _, c := range ve.Causes {
		leafLocations(c, at)
	}
}
