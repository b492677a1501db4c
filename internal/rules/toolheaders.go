package rules

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/finding"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
)

// paramBinding ties an argument annotated with x-mcp-header to the header
// that mirrors it (spec 5.2): path names the property from arguments down
// (nested objects are reached through properties), header is the
// annotation's Name, so the header is Mcp-Param-{Name}.
type paramBinding struct {
	path   []string
	header string
}

// toolHeaders is what the latest tools/list said about one tool's
// x-mcp-header annotations: only names are kept. invalid says why the
// annotations break rule 49 ("" when they are valid); then params is nil.
type toolHeaders struct {
	params  []paramBinding
	invalid string
}

// toolsListed reads a tools/list result (any transport): each tool's
// annotations replace what an earlier tools/list said about that tool, so
// a paginated list accumulates. An invalid annotation is a
// tool-header-annotation finding at seq (rule 49).
func (h *HTTP) toolsListed(seq uint64, result jsontext.Value) {
	jsonraw.EachMember(result, func(name, val []byte) bool {
		if string(name) != `"tools"` {
			return true
		}
		jsonraw.EachElement(val, func(tool []byte) {
			h.toolListed(seq, tool)
		})
		return false
	})
}

// toolListed reads one Tool of a tools/list result.
func (h *HTTP) toolListed(seq uint64, tool []byte) {
	var name string
	var schema []byte
	jsonraw.EachMember(tool, func(k, v []byte) bool {
		switch string(k) {
		case `"name"`:
			name, _ = jsonraw.String(v)
		case `"inputSchema"`:
			schema = v
		}
		return true
	})
	w := annotationWalk{tool: name}
	w.schema(schema, nil, "")
	for _, p := range w.problems {
		h.add(finding.New(finding.ToolHeaderAnnotation, seq, "tool %q: %s", name, p))
	}
	if h.tools == nil {
		if len(w.params) == 0 && len(w.problems) == 0 {
			return
		}
		h.tools = make(map[string]toolHeaders)
	}
	switch {
	case len(w.problems) > 0:
		h.tools[name] = toolHeaders{invalid: w.problems[0]}
	case len(w.params) > 0:
		h.tools[name] = toolHeaders{params: w.params}
	default:
		delete(h.tools, name)
	}
}

// annotationWalk collects the x-mcp-header annotations of one inputSchema
// and what is wrong with them.
type annotationWalk struct {
	tool     string
	params   []paramBinding
	seen     map[string]string // lower-cased Name → property path
	problems []string
}

// Subschema keywords: an annotation under one of them is not reachable
// through properties alone.
const (
	notSchema  = iota
	schemaOne  // a single schema
	schemaList // a schema or an array of them
	schemaMap  // an object of schemas
)

// subschemaKind says what kind of subschemas keyword key holds.
func subschemaKind(key string) int {
	switch key {
	case "not", "if", "then", "else", "additionalProperties", "additionalItems",
		"contains", "unevaluatedProperties", "unevaluatedItems", "propertyNames":
		return schemaOne
	case "items", "prefixItems", "allOf", "anyOf", "oneOf":
		return schemaList
	case "$defs", "definitions", "patternProperties", "dependentSchemas":
		return schemaMap
	}
	return notSchema
}

// schema walks the schema v at the property path; via is the first
// subschema keyword on the way from the root ("" while the path goes
// through properties only).
func (w *annotationWalk) schema(v []byte, path []string, via string) {
	var ann, typ []byte
	jsonraw.EachMember(v, func(k, val []byte) bool {
		key, _ := jsonraw.String(k)
		switch {
		case key == "x-mcp-header":
			ann = val
		case key == "type":
			typ = val
		case key == "properties":
			jsonraw.EachMember(val, func(pk, pv []byte) bool {
				p, _ := jsonraw.String(pk)
				w.schema(pv, append(path[:len(path):len(path)], p), via)
				return true
			})
		default:
			w.subschemas(key, val, path, via)
		}
		return true
	})
	if ann != nil {
		w.annotation(ann, typ, path, via)
	}
}

// subschemas walks the schemas a keyword other than properties holds.
func (w *annotationWalk) subschemas(key string, val []byte, path []string, via string) {
	kind := subschemaKind(key)
	if kind == notSchema {
		return
	}
	if via == "" {
		via = key
	}
	switch {
	case kind == schemaMap:
		jsonraw.EachMember(val, func(_, sv []byte) bool { w.schema(sv, path, via); return true })
	case kind == schemaList && len(val) > 0 && val[0] == '[':
		jsonraw.EachElement(val, func(sv []byte) { w.schema(sv, path, via) })
	default:
		w.schema(val, path, via)
	}
}

// annotation checks one x-mcp-header against spec 5.2 and keeps it when
// it is valid.
func (w *annotationWalk) annotation(ann, typ []byte, path []string, via string) {
	where := "the schema root"
	if len(path) > 0 {
		where = "property " + strings.Join(path, ".")
	}
	name, ok := jsonraw.String(ann)
	switch {
	case !ok || name == "":
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %s on %s is not a non-empty string", ann, where))
		return
	case !mcp.IsToken(name):
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %q on %s is not an RFC 9110 token", name, where))
	case len(path) == 0:
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %q sits on the schema root, not on a property", name))
	case via != "":
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %q on %s is reached through %s, not through properties alone", name, where, via))
	case !primitiveType(typ):
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %q on %s whose type is %s; want string, integer or boolean", name, where, typeText(typ)))
	}
	lower := strings.ToLower(name)
	if prev, dup := w.seen[lower]; dup {
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header %q on %s repeats the one on %s (names are case-insensitive)", name, where, prev))
		return
	}
	if w.seen == nil {
		w.seen = make(map[string]string)
	}
	w.seen[lower] = where
	if len(w.problems) == 0 {
		w.params = append(w.params, paramBinding{path: path, header: name})
	}
}

// primitiveType reports whether a schema's type is string, integer or
// boolean, allowing a nullable ["T","null"] (a null argument omits the
// header).
func primitiveType(typ []byte) bool {
	prim := func(t string) bool { return t == "string" || t == "integer" || t == "boolean" }
	if t, ok := jsonraw.String(typ); ok {
		return prim(t)
	}
	var n, bad int
	ok := jsonraw.EachElement(typ, func(v []byte) {
		switch t, _ := jsonraw.String(v); {
		case prim(t):
			n++
		case t != "null":
			bad++
		}
	})
	return ok && n == 1 && bad == 0
}

// typeText renders a schema's type for a message.
func typeText(typ []byte) string {
	if typ == nil {
		return "absent"
	}
	return string(typ)
}
