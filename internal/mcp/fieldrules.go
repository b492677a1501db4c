package mcp

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// FieldRule is one property of a form's requestedSchema with the
// validation rules its subschema declares (spec 3.3): what an analytics
// event says of a field. Defaults and examples are never kept.
type FieldRule struct {
	Name string
	// Type and Options are what FieldType makes of the subschema.
	Type     string
	Options  []string
	Required bool
	// Format is the subschema's format string, "" when absent.
	Format string
	// MinLength, MaxLength, Minimum and Maximum are the subschema's
	// bounds; nil when absent or not a number (a fractional length is
	// truncated).
	MinLength, MaxLength *int64
	Minimum, Maximum     *float64
}

// FieldRules reads a requested schema's properties with their rules, in
// wire order; nil when the schema has none.
func FieldRules(schema jsontext.Value) []FieldRule {
	var required []string
	jsonraw.EachElement(jsonraw.Member(schema, "required"), func(v []byte) {
		if len(v) > 0 && v[0] == '"' {
			required = append(required, unquotedLoose(v))
		}
	})
	var out []FieldRule
	jsonraw.EachMember(jsonraw.Member(schema, "properties"), func(name, sub []byte) bool {
		f := FieldRule{Name: unquotedLoose(name)}
		for _, r := range required {
			f.Required = f.Required || r == f.Name
		}
		f.Type, f.Options = FieldType(sub)
		f.Format = looseString(jsonraw.Member(sub, "format"))
		f.MinLength, f.MaxLength = intMember(sub, "minLength"), intMember(sub, "maxLength")
		f.Minimum, f.Maximum = numberMember(sub, "minimum"), numberMember(sub, "maximum")
		out = append(out, f)
		return true
	})
	return out
}

// unquotedLoose decodes a raw JSON string; a malformed one is returned as
// written.
func unquotedLoose(raw []byte) string {
	if s, ok := jsonraw.String(raw); ok {
		return s
	}
	return string(raw)
}

func intMember(v []byte, name string) *int64 {
	raw := jsonraw.Member(v, name)
	if len(raw) == 0 {
		return nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(raw), 64)
		if ferr != nil {
			return nil
		}
		n = int64(f)
	}
	return &n
}

func numberMember(v []byte, name string) *float64 {
	raw := jsonraw.Member(v, name)
	if len(raw) == 0 {
		return nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil
	}
	return &f
}
