package rules

import (
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Argument is one top-level property of a tool's inputSchema, as mcptrail
// tools summarises it.
type Argument struct {
	Name string `json:"name"`
	// Type is the property's type keyword: a type name, several joined
	// with "|", or "" when it has none (any value).
	Type string `json:"type"`
	// Required reports whether the schema's required list names it.
	Required bool `json:"required"`
}

// Arguments summarises an inputSchema: its top-level properties, required
// ones first, each group by name. A schema that is not an object has none.
func Arguments(schema jsontext.Value) []Argument {
	if schema == nil {
		return nil
	}
	m, ok := schemaObject(schema)
	if !ok {
		return nil
	}
	props, _ := m["properties"].(map[string]any)
	required := stringSet(m["required"])
	out := make([]Argument, 0, len(props))
	for _, name := range memberNames(props) {
		a := Argument{Name: name, Required: required[name]}
		if p, ok := props[name].(map[string]any); ok {
			a.Type = typeName(p["type"])
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b Argument) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	return out
}

// typeName renders a type keyword: "string", "integer|null".
func typeName(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var names []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				names = append(names, s)
			}
		}
		return strings.Join(names, "|")
	}
	return ""
}
