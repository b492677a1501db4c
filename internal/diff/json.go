package diff

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// The operations of a Delta.
const (
	OpAdded   = "added"   // the member or element is only in the new value
	OpRemoved = "removed" // the member or element is only in the old value
	OpChanged = "changed" // both have it, with different values
)

// ErrInvalidJSON is returned by JSON for an input that is not one JSON
// value.
var ErrInvalidJSON = errors.New("not a JSON value")

// Delta is one difference between two JSON values.
type Delta struct {
	// Path is the JSON Pointer (RFC 6901) of the value that differs; ""
	// is the whole value.
	Path string `json:"path"`
	// Op is OpAdded, OpRemoved or OpChanged.
	Op string `json:"op"`
	// Old and New are the compact JSON text of the value before and
	// after; Old is "" when added, New "" when removed.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// JSON returns the structural differences from a to b, in the order of a's
// members and elements (members only b has follow, in b's order). Objects
// compare member by member (a repeated name: the last one counts), arrays
// element by element at the same index, and scalars as the values they
// denote (1.0 equals 1, "\u0041" equals "A"). Whitespace and member order
// never differ. It returns an error wrapping ErrInvalidJSON when a or b is
// not exactly one JSON value.
func JSON(a, b []byte) ([]Delta, error) {
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	if !jsontext.Value(a).IsValid(opts...) {
		return nil, fmt.Errorf("comparing JSON: the old value: %w", ErrInvalidJSON)
	}
	if !jsontext.Value(b).IsValid(opts...) {
		return nil, fmt.Errorf("comparing JSON: the new value: %w", ErrInvalidJSON)
	}
	var d differ
	d.walk("", trim(a), trim(b))
	return d.out, nil
}

// differ collects the deltas of one comparison.
type differ struct{ out []Delta }

func (d *differ) walk(path string, a, b []byte) {
	ka, kb := kind(a), kind(b)
	switch {
	case ka != kb:
		d.add(path, OpChanged, a, b)
	case ka == '{':
		d.object(path, a, b)
	case ka == '[':
		d.array(path, a, b)
	case !sameScalar(a, b):
		d.add(path, OpChanged, a, b)
	}
}

// object compares two objects member by member.
func (d *differ) object(path string, a, b []byte) {
	na, va := members(a)
	nb, vb := members(b)
	for _, name := range na {
		p := path + "/" + escape(name)
		if v, ok := vb[name]; ok {
			d.walk(p, va[name], v)
		} else {
			d.add(p, OpRemoved, va[name], nil)
		}
	}
	for _, name := range nb {
		if _, ok := va[name]; !ok {
			d.add(path+"/"+escape(name), OpAdded, nil, vb[name])
		}
	}
}

// array compares two arrays index by index.
func (d *differ) array(path string, a, b []byte) {
	ea, eb := elements(a), elements(b)
	for i := range max(len(ea), len(eb)) {
		p := path + "/" + strconv.Itoa(i)
		switch {
		case i >= len(eb):
			d.add(p, OpRemoved, ea[i], nil)
		case i >= len(ea):
			d.add(p, OpAdded, nil, eb[i])
		default:
			d.walk(p, ea[i], eb[i])
		}
	}
}

func (d *differ) add(path, op string, a, b []byte) {
	d.out = append(d.out, Delta{Path: path, Op: op, Old: compact(a), New: compact(b)})
}

// members returns an object's distinct member names in order of first
// appearance and each name's last value.
func members(v []byte) ([]string, map[string][]byte) {
	var names []string
	vals := map[string][]byte{}
	jsonraw.EachMember(v, func(raw, val []byte) bool {
		name, ok := jsonraw.String(raw)
		if !ok {
			name = string(raw)
		}
		if _, seen := vals[name]; !seen {
			names = append(names, name)
		}
		vals[name] = val
		return true
	})
	return names, vals
}

func elements(v []byte) [][]byte {
	var out [][]byte
	jsonraw.EachElement(v, func(val []byte) { out = append(out, val) })
	return out
}

// kind is the first byte of a value, with every number as '0'.
func kind(v []byte) byte {
	if len(v) == 0 {
		return 0
	}
	switch c := v[0]; c {
	case '{', '[', '"', 'n':
		return c
	case 't', 'f':
		return 't'
	}
	return '0'
}

// sameScalar reports whether two scalars denote the same value.
func sameScalar(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	return canonical(a) == canonical(b)
}

func canonical(v []byte) string {
	c := jsontext.Value(append([]byte(nil), v...))
	if err := c.Canonicalize(jsontext.AllowInvalidUTF8(true)); err != nil {
		return string(v)
	}
	return string(c)
}

func compact(v []byte) string {
	if v == nil {
		return ""
	}
	c := jsontext.Value(append([]byte(nil), v...))
	if err := c.Compact(); err != nil {
		return string(v)
	}
	return string(c)
}

// trim drops the JSON whitespace around a value.
func trim(v []byte) []byte { return bytes.Trim(v, " \t\r\n") }

// escape escapes a member name as a JSON Pointer reference token.
func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}
