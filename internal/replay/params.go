package replay

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// paramBinding ties a tool argument annotated x-mcp-header in the tool's
// inputSchema to the Mcp-Param-{Name} header that mirrors it (spec 5.2):
// path names the property from arguments down, through properties only.
type paramBinding struct {
	path   []string
	header string // the annotation's Name
}

// toolBindings reads the x-mcp-header annotations of every tool of a
// tools/list result into m (tool name → bindings), and marks each tool
// listed; a tool listed without any loses what an earlier list said.
func toolBindings(m map[string][]paramBinding, listed map[string]bool, result jsontext.Value) {
	jsonraw.EachElement(jsonraw.Member(result, "tools"), func(tool []byte) {
		name, ok := jsonraw.String(jsonraw.Member(tool, "name"))
		if !ok {
			return
		}
		listed[name] = true
		if bs := schemaBindings(jsonraw.Member(tool, "inputSchema"), nil, nil); len(bs) > 0 {
			m[name] = bs
		} else {
			delete(m, name)
		}
	})
}

// catalogBindings returns the bindings of the tools the capture's catalog
// holds (the latest definition of each).
func catalogBindings(cat *store.Catalog) map[string][]paramBinding {
	out := make(map[string][]paramBinding)
	for d := range toolDefinitions(cat) {
		if bs := schemaBindings(d.InputSchema, nil, nil); len(bs) > 0 {
			out[d.Key] = bs
		}
	}
	return out
}

// schemaBindings collects the annotations of schema's properties, nested
// objects included, reached through properties alone; an annotation that
// is not a token is no header and is left out (the server rejects it).
func schemaBindings(schema jsontext.Value, path []string, out []paramBinding) []paramBinding {
	jsonraw.EachMember(jsonraw.Member(schema, "properties"), func(k, prop []byte) bool {
		name, ok := jsonraw.String(k)
		if !ok {
			return true
		}
		p := append(path[:len(path):len(path)], name)
		if h, ok := jsonraw.String(jsonraw.Member(prop, "x-mcp-header")); ok && mcp.IsToken(h) {
			out = append(out, paramBinding{path: p, header: h})
		}
		out = schemaBindings(prop, p, out)
		return true
	})
	return out
}

// setParamHeaders sets the Mcp-Param-* headers of a tools/call whose
// arguments are args: one per binding whose argument is present and not
// null, its value a string as is (base64-sentinel encoded when unsafe), an
// integer in decimal, a boolean as true or false (spec 5.2).
func setParamHeaders(h http.Header, bs []paramBinding, args jsontext.Value) {
	for _, b := range bs {
		v, ok := argumentAt(args, b.path)
		if !ok {
			continue
		}
		if s, ok := headerText(v); ok {
			h.Set(mcp.HeaderParamPrefix+b.header, s)
		}
	}
}

// argumentAt returns the value at path inside the arguments object.
func argumentAt(args jsontext.Value, path []string) (jsontext.Value, bool) {
	cur := args
	for _, p := range path {
		if cur = jsonraw.Member(cur, p); cur == nil {
			return nil, false
		}
	}
	return cur, len(path) > 0
}

// headerText is an argument's header value; false for null, an object or
// an array, and for a number that is not an integer.
func headerText(v jsontext.Value) (string, bool) {
	raw := strings.TrimSpace(string(v))
	switch {
	case raw == "" || raw == "null" || raw[0] == '{' || raw[0] == '[':
		return "", false
	case raw == "true" || raw == "false":
		return raw, true
	case raw[0] == '"':
		s, ok := jsonraw.String(v)
		return headerValue(s), ok
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || f != float64(int64(f)) {
		return "", false
	}
	return strconv.FormatInt(int64(f), 10), true
}
