package replay

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// member is one member of a JSON object: its name as written and its raw
// value.
type member struct {
	name string // unquoted
	val  jsontext.Value
}

// members lists the members of object v in order; nil when v is not an
// object.
func members(v jsontext.Value) []member {
	var out []member
	jsonraw.EachMember(v, func(name, val []byte) bool {
		n, ok := jsonraw.String(name)
		if ok {
			out = append(out, member{n, clone(val)})
		}
		return true
	})
	return out
}

// withMembers returns object v with the members of set replaced (or added
// at the end, in the order given) and the members named in drop removed;
// the other members keep their order and bytes.
func withMembers(v jsontext.Value, set []member, drop ...string) jsontext.Value {
	ms := members(v)
	ms = slices.DeleteFunc(ms, func(m member) bool { return slices.Contains(drop, m.name) })
	for _, s := range set {
		i := slices.IndexFunc(ms, func(m member) bool { return m.name == s.name })
		if i >= 0 {
			ms[i].val = s.val
		} else {
			ms = append(ms, s)
		}
	}
	return object(ms)
}

// object encodes members as a JSON object.
func object(ms []member) jsontext.Value {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(m.name))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// quote returns s as a JSON string.
func quote(s string) jsontext.Value {
	v, err := jsontext.AppendQuote(nil, s)
	if err != nil { // invalid UTF-8 is replaced, never an error in practice
		return jsontext.Value(strconv.Quote(s))
	}
	return v
}

// request encodes a JSON-RPC request; params nil leaves them out.
func request(id int64, method string, params jsontext.Value) []byte {
	ms := []member{{"jsonrpc", jsontext.Value(`"2.0"`)}, {"id", jsontext.Value(wire.IntID(id).Raw())}, {"method", quote(method)}}
	if params != nil {
		ms = append(ms, member{"params", params})
	}
	return object(ms)
}

// notification encodes a JSON-RPC notification without params.
func notification(method string) []byte {
	return object([]member{{"jsonrpc", jsontext.Value(`"2.0"`)}, {"method", quote(method)}})
}

// response re-addresses a recorded response message to id.
func response(recorded jsontext.Value, id wire.ID) []byte {
	return withMembers(recorded, []member{{"id", jsontext.Value(id.Raw())}})
}

// errorResponse encodes a JSON-RPC error answer to id.
func errorResponse(id wire.ID, code int64, msg string) []byte {
	e := object([]member{{"code", jsontext.Value(strconv.FormatInt(code, 10))}, {"message", quote(msg)}})
	return object([]member{{"jsonrpc", jsontext.Value(`"2.0"`)}, {"id", jsontext.Value(id.Raw())}, {"error", e}})
}
