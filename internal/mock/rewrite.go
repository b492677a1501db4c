package mock

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// errNotObject is setMember's error for input that is not one valid JSON
// object.
var errNotObject = errors.New("not one valid JSON object")

// setMember returns a copy of the JSON object obj with the value of its
// member name replaced by val, or with the member appended when obj has
// none. The other bytes of obj are kept as they are. It fails when obj is
// not one valid JSON object (duplicate names make it invalid) or val is not
// one valid JSON value.
func setMember(obj []byte, name string, val []byte) ([]byte, error) {
	if !jsontext.Value(val).IsValid() {
		return nil, fmt.Errorf("setting member %q: invalid value", name)
	}
	if !jsontext.Value(obj).IsValid() || jsontext.Value(obj).Kind() != '{' {
		return nil, fmt.Errorf("setting member %q: %w", name, errNotObject)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.ReadToken(); err != nil { // the opening brace
		return nil, fmt.Errorf("setting member %q: %w", name, err)
	}
	members := 0
	for dec.PeekKind() != '}' {
		nt, err := dec.ReadToken()
		if err != nil {
			return nil, fmt.Errorf("setting member %q: %w", name, err)
		}
		got := nt.String() // before the next read voids the token
		v, err := dec.ReadValue()
		if err != nil {
			return nil, fmt.Errorf("setting member %q: %w", name, err)
		}
		members++
		if got == name {
			end := int(dec.InputOffset())
			return slices.Concat(obj[:end-len(v)], val, obj[end:]), nil
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, fmt.Errorf("setting member %q: %w", name, err)
	}
	end := int(dec.InputOffset()) - 1 // the closing brace
	quoted, err := jsontext.AppendQuote(nil, name)
	if err != nil {
		return nil, fmt.Errorf("setting member %q: %w", name, err)
	}
	if members > 0 {
		quoted = append([]byte(","), quoted...)
	}
	return slices.Concat(obj[:end], quoted, []byte(":"), val, obj[end:]), nil
}

// setPath is setMember on the object at the end of path (member names
// from obj down), which must exist.
func setPath(obj []byte, path []string, name string, val []byte) ([]byte, error) {
	if len(path) == 0 {
		return setMember(obj, name, val)
	}
	inner := jsonraw.Member(obj, path[0])
	if inner == nil {
		return nil, fmt.Errorf("setting member %q: no member %q", name, path[0])
	}
	v, err := setPath(inner, path[1:], name, val)
	if err != nil {
		return nil, err
	}
	return setMember(obj, path[0], v)
}
