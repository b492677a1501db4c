package wire

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// Problems reported in Frame.Problem.
const (
	ProblemEmpty       = "empty frame"
	ProblemUTF8        = "invalid UTF-8"
	ProblemJSON        = "not valid JSON"
	ProblemNotObject   = "not a JSON object or array"
	ProblemVersion     = `missing or wrong "jsonrpc" member (want "2.0")`
	ProblemShape       = "neither a request, a notification nor a response"
	ProblemIDType      = "id is neither a string, an integer nor null"
	ProblemMethodType  = "method is not a string"
	ProblemErrorShape  = "error member is not an object with an integer code and a string message"
	ProblemBoth        = "response carries both result and error"
	ProblemEmptyBatch  = "empty batch"
	ProblemDuplicateID = "duplicate member name"
)

// Decode classifies one frame's bytes (surrounding whitespace, including a
// trailing CR, is ignored). It never fails: a frame that is not a JSON-RPC
// message comes back as KindInvalid with Problem set. Raw values in the
// Frame alias b.
//
// The bytes are validated once by jsontext; members are then picked out by
// a small scanner, which costs a fraction of a token-by-token decode.
func Decode(b []byte) Frame { return decode(b, nil) }

// A Decoder decodes frames as Decode does and shares one string per method
// name it has seen, so that a stream of frames does not allocate a method
// string per request. It remembers at most maxMethods names: a peer that
// sends a new name in every frame cannot make it grow. The zero Decoder is
// ready to use; it is not safe for concurrent use.
type Decoder struct {
	methods map[string]method // by the quoted name as written
	// last is the name found last, checked before the map: a stream
	// repeats one method (tools/call) more often than not.
	last method
}

// method is a method name, quoted as written and unquoted.
type method struct{ raw, name string }

// maxMethods bounds a Decoder's table of method names.
const maxMethods = 256

// Decode classifies one frame's bytes, like the package-level Decode.
func (d *Decoder) Decode(b []byte) Frame { return decode(b, d) }

// DecodeValid is Decode for bytes already known to be one valid JSON
// value (duplicate member names allowed) in valid UTF-8, with no
// whitespace around it, as a capture.Reader's Record.Msg is: an object
// skips the UTF-8 and JSON checks that Decode would repeat. On any other
// bytes its result is undefined.
func (d *Decoder) DecodeValid(b []byte) Frame {
	if len(b) > 0 && b[0] == '{' {
		return d.decodeObject(b)
	}
	return decode(b, d)
}

// decode is Decode, interning method names in d when d is not nil.
func decode(b []byte, d *Decoder) Frame {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return Frame{Problem: ProblemEmpty}
	}
	if !utf8.Valid(b) {
		return Frame{Problem: ProblemUTF8}
	}
	switch b[0] {
	case '{':
		// A message may repeat a member (a finding, not a parse error).
		// jsonraw.ValidEnd vouches for most messages quicker than jsontext.
		if jsonraw.ValidEnd(b, 0) != len(b) && !jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true)) {
			return Frame{Problem: ProblemJSON}
		}
		return d.decodeObject(b)
	case '[':
		if !jsontext.Value(b).IsValid() {
			return Frame{Problem: ProblemJSON}
		}
		return d.decodeBatch(b)
	}
	if !jsontext.Value(b).IsValid() {
		return Frame{Problem: ProblemJSON}
	}
	return Frame{Problem: ProblemNotObject}
}

// decodeBatch decodes the elements of a validated array.
func (d *Decoder) decodeBatch(b []byte) Frame {
	f := Frame{Kind: KindBatch}
	ok := jsonraw.EachElement(b, func(v []byte) {
		if v[0] == '{' {
			f.Batch = append(f.Batch, d.decodeObject(v))
		} else {
			f.Batch = append(f.Batch, Frame{Problem: ProblemNotObject})
		}
	})
	if !ok {
		return Frame{Problem: ProblemJSON}
	}
	if len(f.Batch) == 0 {
		f.Problem = ProblemEmptyBatch
	}
	return f
}

// members collects the JSON-RPC members of one object.
type members struct {
	version, id, method, params, result, errv jsontext.Value
	hasID, hasResult, hasError, dup           bool
}

// readMembers picks the JSON-RPC members out of a validated object; a
// repeated member keeps its last value and sets dup.
func readMembers(b []byte) (members, bool) {
	var m members
	var buf [16]byte
	seen := 0
	ok := jsonraw.EachMember(b, func(name, v []byte) bool {
		var slot *jsontext.Value
		var bit int
		switch string(memberName(buf[:0], name)) {
		case "jsonrpc":
			slot, bit = &m.version, 1
		case "id":
			slot, bit, m.hasID = &m.id, 2, true
		case "method":
			slot, bit = &m.method, 4
		case "params":
			slot, bit = &m.params, 8
		case "result":
			slot, bit, m.hasResult = &m.result, 16, true
		case "error":
			slot, bit, m.hasError = &m.errv, 32, true
		default:
			return true
		}
		if seen&bit != 0 {
			m.dup = true
		}
		seen |= bit
		*slot = v
		return true
	})
	return m, ok
}

// memberName returns the unquoted name (quotes included in name), decoding
// escapes into buf only when there are some, or nil when it is malformed.
func memberName(buf, name []byte) []byte {
	out, _ := jsonraw.Unquote(buf, name)
	return out
}

func (d *Decoder) decodeObject(b []byte) Frame {
	m, ok := readMembers(b)
	if !ok {
		return Frame{Problem: ProblemJSON}
	}
	var f Frame
	if m.hasID {
		switch m.id.Kind() {
		case '"', 'n':
			f.ID = ID{raw: string(m.id)}
		case '0':
			if !isInteger(m.id) {
				return Frame{Problem: ProblemIDType}
			}
			f.ID = ID{raw: string(m.id)}
		default:
			return Frame{Problem: ProblemIDType}
		}
	}
	switch {
	case m.method != nil:
		if m.method.Kind() != '"' {
			return Frame{ID: f.ID, Problem: ProblemMethodType}
		}
		f.Method = d.method(m.method)
		f.Params = m.params
		if m.hasID {
			f.Kind = KindRequest
		} else {
			f.Kind = KindNotification
		}
	case m.hasError:
		f.Kind = KindError
		f.ErrorData, f.ErrorCode, f.ErrorMessage, f.CodeOK = decodeError(m.errv)
		if !f.CodeOK {
			f.Problem = ProblemErrorShape
		}
		if m.hasResult {
			f.Problem = ProblemBoth
		}
	case m.hasResult && m.hasID:
		f.Kind = KindResponse
		f.Result = m.result
	default:
		return Frame{ID: f.ID, Problem: ProblemShape}
	}
	if f.Problem == "" && string(m.version) != `"2.0"` && (m.version.Kind() != '"' || unquote(m.version) != "2.0") {
		f.Problem = ProblemVersion
	}
	if f.Problem == "" && m.dup {
		f.Problem = ProblemDuplicateID
	}
	return f
}

// method unquotes a method name, sharing the string of a name d has seen
// rather than allocating one per frame. A nil d shares nothing.
func (d *Decoder) method(v jsontext.Value) string {
	if d == nil {
		return unquote(v)
	}
	if string(v) == d.last.raw {
		return d.last.name
	}
	if m, ok := d.methods[string(v)]; ok {
		d.last = m
		return m.name
	}
	name := unquote(v)
	if len(d.methods) < maxMethods {
		if d.methods == nil {
			d.methods = make(map[string]method)
		}
		raw := string(v)
		d.methods[raw] = method{raw, name}
	}
	return name
}

// decodeError reads an error object: its data, integer code and message.
// An object that repeats a name anywhere inside counts as malformed.
func decodeError(v jsontext.Value) (data jsontext.Value, code int64, msg string, ok bool) {
	if v.Kind() != '{' || !v.IsValid() {
		return nil, 0, "", false
	}
	codeOK, msgOK := false, false
	var buf [16]byte
	jsonraw.EachMember(v, func(name, val []byte) bool {
		switch string(memberName(buf[:0], name)) {
		case "code":
			if jsontext.Value(val).Kind() == '0' && isInteger(val) {
				n, err := strconv.ParseInt(string(val), 10, 64)
				code, codeOK = n, err == nil
			}
		case "message":
			if val[0] == '"' {
				msg, msgOK = unquote(val), true
			}
		case "data":
			data = val
		}
		return true
	})
	return data, code, msg, codeOK && msgOK
}

func isInteger(v jsontext.Value) bool {
	return !bytes.ContainsAny(v, ".eE")
}

// unquote returns the string v holds, or "" when it is not one.
func unquote(v jsontext.Value) string {
	s, _ := jsonraw.String(v)
	return s
}
