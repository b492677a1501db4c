package rules

import (
	"bytes"
	"maps"
	"slices"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// How two inputSchemas compare. The walk reads, at the root and in every
// property both versions have (nested through properties, up to
// maxSchemaDepth levels): type (a string or an array of them; absent means
// any, and number covers integer), enum (absent means any value),
// required, the property set, additionalProperties (only false closes it)
// and, below the root, description. A change that lets more calls
// validate loosens the schema, one that rejects calls that were valid
// tightens it; a type or enum changed to an unrelated one tightens it.
// Keywords other than those (anyOf, items, pattern, ...) are not compared.

// maxSchemaDepth bounds the walk into nested properties.
const maxSchemaDepth = 32

// absent is the text of a member a version does not have.
const absent = "absent"

// CompareSchemas compares two versions of a tool's inputSchema and returns
// what changed, in a stable order (root first, then properties by name),
// with Tool left empty: ToolSchemaLoosened and ToolSchemaTightened
// changes, and ToolDescriptionChanged for an argument's description. An
// absent schema (nil) reads as {}, which accepts anything; a schema that is
// not a JSON object is compared as text, any difference tightening it.
func CompareSchemas(old, new jsontext.Value) []ToolChange {
	if bytes.Equal(old, new) {
		return nil
	}
	o, okOld := schemaObject(old)
	n, okNew := schemaObject(new)
	if !okOld || !okNew {
		a, b := rawText(old), rawText(new)
		if a == b {
			return nil
		}
		return []ToolChange{{Kind: ToolSchemaTightened, What: "inputSchema", Old: a, New: b}}
	}
	var w schemaWalk
	w.object("", o, n, 0)
	return w.out
}

// schemaObject decodes a schema; nil reads as an empty object. It reports
// false for a value that is not a JSON object.
func schemaObject(raw jsontext.Value) (map[string]any, bool) {
	if raw == nil {
		return map[string]any{}, true
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// schemaWalk collects the changes of one schema comparison.
type schemaWalk struct{ out []ToolChange }

func (w *schemaWalk) add(kind, what, old, new string) {
	w.out = append(w.out, ToolChange{Kind: kind, What: what, Old: old, New: new})
}

// object compares two versions of the (sub)schema at path ("" the root,
// else the dotted argument name).
func (w *schemaWalk) object(path string, o, n map[string]any, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	w.sets(path, "type", typeSet(o["type"]), typeSet(n["type"]), o["type"], n["type"])
	w.sets(path, "enum", enumSet(o["enum"]), enumSet(n["enum"]), o["enum"], n["enum"])
	if path != "" {
		od, _ := o["description"].(string)
		nd, _ := n["description"].(string)
		if od != nd {
			w.add(ToolDescriptionChanged, "argument "+path+" description", od, nd)
		}
	}
	oa, na := o["additionalProperties"], n["additionalProperties"]
	switch {
	case oa == false && na != false:
		w.add(ToolSchemaLoosened, at(path, "additionalProperties"), "false", valueText(na))
	case oa != false && na == false:
		w.add(ToolSchemaTightened, at(path, "additionalProperties"), valueText(oa), "false")
	}
	w.required(path, o, n)
	w.properties(path, o, n, depth)
}

// required compares the required lists: a name dropped loosens (unless
// its property went too: that is reported as removed), a name added
// tightens; the texts are the whole lists.
func (w *schemaWalk) required(path string, o, n map[string]any) {
	or, nr := stringSet(o["required"]), stringSet(n["required"])
	ot, nt := valueText(o["required"]), valueText(n["required"])
	op, _ := o["properties"].(map[string]any)
	np, _ := n["properties"].(map[string]any)
	for _, name := range memberNames(or) {
		_, hadProp := op[name]
		_, hasProp := np[name]
		if !nr[name] && (hasProp || !hadProp) {
			w.add(ToolSchemaLoosened, "argument "+join(path, name)+" no longer required", ot, nt)
		}
	}
	for _, name := range memberNames(nr) {
		if !or[name] {
			w.add(ToolSchemaTightened, "argument "+join(path, name)+" now required", ot, nt)
		}
	}
}

// properties compares the properties of two object schemas by name.
func (w *schemaWalk) properties(path string, o, n map[string]any, depth int) {
	op, _ := o["properties"].(map[string]any)
	np, _ := n["properties"].(map[string]any)
	names := memberNames(op)
	for name := range np {
		if _, ok := op[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	newRequired := stringSet(n["required"])
	for _, name := range names {
		ov, inOld := op[name]
		nv, inNew := np[name]
		arg := join(path, name)
		switch {
		case !inOld && !newRequired[name]: // a new required one is reported as required
			w.add(ToolSchemaLoosened, "argument "+arg+" added", absent, valueText(nv))
		case !inNew:
			w.add(ToolSchemaTightened, "argument "+arg+" removed", valueText(ov), absent)
		case inOld && inNew:
			om, okOld := ov.(map[string]any)
			nm, okNew := nv.(map[string]any)
			if okOld && okNew {
				w.object(arg, om, nm, depth+1)
			} else if a, b := valueText(ov), valueText(nv); a != b {
				w.add(ToolSchemaTightened, "argument "+arg+" schema", a, b)
			}
		}
	}
}

// sets compares a type or enum: each set nil means any value. One that
// covers the other widens or narrows; neither covering is a change that
// tightens.
func (w *schemaWalk) sets(path, what string, o, n []string, ov, nv any) {
	wider, narrower := covers(o, n), covers(n, o)
	if wider && narrower {
		return
	}
	kind := ToolSchemaTightened
	if wider {
		kind = ToolSchemaLoosened
	}
	w.add(kind, at(path, what), valueText(ov), valueText(nv))
}

// covers reports whether every value of a is in b (nil means every value;
// a number type covers integer).
func covers(a, b []string) bool {
	if b == nil {
		return true
	}
	if a == nil {
		return false
	}
	for _, v := range a {
		if !slices.Contains(b, v) && (v != `"integer"` || !slices.Contains(b, `"number"`)) {
			return false
		}
	}
	return true
}

// typeSet returns a type keyword as a set of JSON texts; nil when absent.
// A value that is neither a string nor an array is a set of itself.
func typeSet(v any) []string {
	if v == nil {
		return nil
	}
	if list, ok := v.([]any); ok {
		return enumSet(list)
	}
	return []string{valueText(v)}
}

// enumSet returns the values of an enum as a sorted set of JSON texts;
// nil when absent, and a non-array value is a set of itself.
func enumSet(v any) []string {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return []string{valueText(v)}
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		out = append(out, valueText(e))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// stringSet returns the strings of a JSON array (a required list).
func stringSet(v any) map[string]bool {
	list, _ := v.([]any)
	out := make(map[string]bool, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out[s] = true
		}
	}
	return out
}

// memberNames returns the keys of m, sorted.
func memberNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// valueText returns a decoded JSON value as canonical JSON text (members
// sorted); "absent" for nil.
func valueText(v any) string {
	if v == nil {
		return absent
	}
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return absent
	}
	return string(b)
}

// rawText returns a raw JSON value in canonical form when it can be
// canonicalised, as sent otherwise; "absent" for nil.
func rawText(raw jsontext.Value) string {
	if raw == nil {
		return absent
	}
	v := jsontext.Value(bytes.Clone(raw))
	if err := v.Canonicalize(); err != nil {
		return string(raw)
	}
	return string(v)
}

// at names a keyword of the schema at path.
func at(path, what string) string {
	if path == "" {
		return what
	}
	return "argument " + path + " " + what
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
