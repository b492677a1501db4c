package rules

import (
	"fmt"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// subschema is the part of a form property's schema the subset rule
// reads (spec 3.3). Type is raw: a union type array is outside the subset.
type subschema struct {
	Type  jsontext.Value   `json:"type"`
	Enum  []jsontext.Value `json:"enum"`
	AnyOf jsontext.Value   `json:"anyOf"`
	AllOf jsontext.Value   `json:"allOf"`
	OneOf []jsontext.Value `json:"oneOf"`
	Ref   jsontext.Value   `json:"$ref"`
	Items *subschema       `json:"items"`
	Const jsontext.Value   `json:"const"`
}

// unsupportedSchema says why a form's requestedSchema is outside the
// restricted subset (a flat object of primitive fields, spec 3.3), or ""
// when it is inside. It judges structure only (types, unions, nesting,
// enum values); it does not flag extra annotation keywords, nor a
// property a redacted capture replaced with a string.
func unsupportedSchema(raw jsontext.Value) string {
	var root struct {
		Type       jsontext.Value            `json:"type"`
		Properties map[string]jsontext.Value `json:"properties"`
	}
	if json.Unmarshal(raw, &root) != nil {
		return "it is not an object with a properties object"
	}
	if string(root.Type) != `"object"` {
		return `its type is not "object"`
	}
	names := make([]string, 0, len(root.Properties))
	for n := range root.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if root.Properties[n].Kind() == '"' {
			continue // a redaction placeholder: nothing left to judge
		}
		var p subschema
		if json.Unmarshal(root.Properties[n], &p) != nil {
			return fmt.Sprintf("property %q is not a primitive schema", n)
		}
		if why := p.unsupported(); why != "" {
			return fmt.Sprintf("property %q %s", n, why)
		}
	}
	return ""
}

// unsupported says why one property is outside the subset, or "".
func (p *subschema) unsupported() string {
	switch {
	case p.AnyOf != nil || p.AllOf != nil || p.Ref != nil:
		return "uses anyOf, allOf or $ref (a union or reference; optional fields are left out of required instead)"
	case len(p.Type) > 0 && p.Type.Kind() == '[':
		return fmt.Sprintf("has a union type %s", p.Type)
	}
	var typ string
	if json.Unmarshal(p.Type, &typ) != nil {
		return "has no type"
	}
	switch typ {
	case "string":
		if !allStrings(p.Enum) {
			return "has an enum with non-string values"
		}
		for _, o := range p.OneOf {
			var c struct {
				Const jsontext.Value `json:"const"`
			}
			if json.Unmarshal(o, &c) != nil || c.Const.Kind() != '"' {
				return "has a oneOf option that is not {const: string, title}"
			}
		}
		return ""
	case "number", "integer", "boolean":
		if p.Enum != nil || p.OneOf != nil {
			return fmt.Sprintf("is a %s enum (enum values are strings only)", typ)
		}
		return ""
	case "array":
		return p.multiSelect()
	case "object":
		return "is a nested object"
	}
	return fmt.Sprintf("has type %q", typ)
}

// multiSelect says why an array property is not a multi-select enum, or "".
func (p *subschema) multiSelect() string {
	it := p.Items
	if it == nil {
		return "is an array without items"
	}
	if it.AnyOf != nil {
		var opts []struct {
			Const jsontext.Value `json:"const"`
		}
		if json.Unmarshal(it.AnyOf, &opts) != nil || len(opts) == 0 {
			return "is an array whose items.anyOf is not a list of {const: string, title}"
		}
		for _, o := range opts {
			if o.Const.Kind() != '"' {
				return "is an array whose items.anyOf is not a list of {const: string, title}"
			}
		}
		return ""
	}
	if string(it.Type) != `"string"` || len(it.Enum) == 0 || !allStrings(it.Enum) {
		return "is an array that is not a multi-select enum of strings"
	}
	return ""
}

func allStrings(vs []jsontext.Value) bool {
	for _, v := range vs {
		if v.Kind() != '"' {
			return false
		}
	}
	return true
}
