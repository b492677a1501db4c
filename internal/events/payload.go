package events

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// What analytics events keep of a request's params or a result: its shape
// (member names and value types, never a value) by default, or with
// --events-content (Feed's content) the value itself. Either way a top-level _meta member
// is dropped (protocol bookkeeping, not the operation's payload).

// Shape limits: deeper values become their type name, longer arrays are
// summarised by their first distinct element shapes.
const (
	shapeMaxDepth = 8
	shapeMaxElems = 8
)

// payloadOf returns what an event keeps of the raw JSON value v: its shape,
// or its compacted value when content is set. It returns nil for an absent
// value.
func payloadOf(v []byte, content bool) jsontext.Value {
	if len(bytes.TrimSpace(v)) == 0 {
		return nil
	}
	if content {
		return contentOf(v)
	}
	var b bytes.Buffer
	writeShape(&b, v, 0, true)
	return jsontext.Value(b.Bytes())
}

// contentOf returns a compacted copy of v without a top-level _meta.
func contentOf(v []byte) jsontext.Value {
	out := jsontext.Value(bytes.Clone(bytes.TrimSpace(v)))
	if len(out) > 0 && out[0] == '{' {
		var b bytes.Buffer
		b.WriteByte('{')
		n := 0
		jsonraw.EachMember(out, func(name, val []byte) bool {
			if string(name) == `"`+mcp.MemberMeta+`"` {
				return true
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(name)
			b.WriteByte(':')
			b.Write(val)
			return true
		})
		b.WriteByte('}')
		out = jsontext.Value(b.Bytes())
	}
	if err := out.Compact(); err != nil {
		return jsontext.Value(strconv.Quote(string(v)))
	}
	return out
}

// jsonType names the JSON type of a raw value.
func jsonType(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "unknown"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// writeShape writes the shape of v: an object's members with their shapes
// (top drops _meta), an array's distinct element shapes, a scalar's type
// name as a JSON string.
func writeShape(b *bytes.Buffer, v []byte, depth int, top bool) {
	typ := jsonType(v)
	if depth >= shapeMaxDepth || (typ != "object" && typ != "array") {
		b.WriteString(strconv.Quote(typ))
		return
	}
	if typ == "object" {
		b.WriteByte('{')
		n := 0
		ok := jsonraw.EachMember(v, func(name, val []byte) bool {
			if top && string(name) == `"`+mcp.MemberMeta+`"` {
				return true
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(name)
			b.WriteByte(':')
			writeShape(b, val, depth+1, false)
			return true
		})
		if !ok && n == 0 {
			b.Reset()
			b.WriteString(`"object"`)
			return
		}
		b.WriteByte('}')
		return
	}
	var seen []string
	jsonraw.EachElement(v, func(val []byte) {
		if len(seen) >= shapeMaxElems {
			return
		}
		var e bytes.Buffer
		writeShape(&e, val, depth+1, false)
		for _, s := range seen {
			if s == e.String() {
				return
			}
		}
		seen = append(seen, e.String())
	})
	b.WriteByte('[')
	for i, s := range seen {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
	}
	b.WriteByte(']')
}

// memberNames returns the member names of object v, unquoted, in order.
func memberNames(v []byte) []string {
	var out []string
	jsonraw.EachMember(v, func(n, _ []byte) bool {
		out = append(out, unquoted(n))
		return true
	})
	return out
}

// unquoted decodes a raw JSON string; a malformed one is returned as
// written.
func unquoted(raw []byte) string {
	if s, ok := jsonraw.String(raw); ok {
		return s
	}
	return string(raw)
}

// fieldRules is what an event says of a requested schema's fields
// (mcp.FieldRules), with a select field's options counted in Choices; a
// union such as anyOf [string, null] is a type ("string|null"), not
// choices. Nil when the schema has none.
func fieldRules(schema []byte) []Field {
	rules := mcp.FieldRules(schema)
	if rules == nil {
		return nil
	}
	out := make([]Field, len(rules))
	for i, r := range rules {
		out[i] = Field{
			Name: r.Name, Type: r.Type, Required: r.Required, Format: r.Format,
			MinLength: r.MinLength, MaxLength: r.MaxLength, Minimum: r.Minimum, Maximum: r.Maximum,
			Choices: len(r.Options), Options: r.Options,
		}
	}
	return out
}
