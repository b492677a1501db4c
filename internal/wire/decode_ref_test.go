package wire

// This file keeps the jsontext.Decoder-based Decode that decode.go replaced,
// as the reference FuzzDecodeDifferential compares the fast one against.

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Decode classifies one frame's bytes (surrounding whitespace, including a
// trailing CR, is ignored). It never fails: a frame that is not a JSON-RPC
// message comes back as KindInvalid with Problem set.
func refDecode(b []byte) Frame {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return Frame{Problem: ProblemEmpty}
	}
	if !utf8.Valid(b) {
		return Frame{Problem: ProblemUTF8}
	}
	switch b[0] {
	case '{':
		return refDecodeObject(b)
	case '[':
		return refDecodeBatch(b)
	}
	if !jsontext.Value(b).IsValid() {
		return Frame{Problem: ProblemJSON}
	}
	return Frame{Problem: ProblemNotObject}
}

func refDecodeBatch(b []byte) Frame {
	dec := jsontext.NewDecoder(bytes.NewBuffer(b))
	if _, err := dec.ReadToken(); err != nil {
		return Frame{Problem: ProblemJSON}
	}
	f := Frame{Kind: KindBatch}
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil {
			return Frame{Problem: ProblemJSON}
		}
		if v.Kind() == '{' {
			f.Batch = append(f.Batch, refDecodeObject(v))
		} else {
			f.Batch = append(f.Batch, Frame{Problem: ProblemNotObject})
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return Frame{Problem: ProblemJSON}
	}
	if _, err := dec.ReadToken(); err == nil {
		return Frame{Problem: ProblemJSON} // trailing data
	}
	if len(f.Batch) == 0 {
		f.Problem = ProblemEmptyBatch
	}
	return f
}

// members collects the JSON-RPC members of one object.
type refMembers struct {
	version, id, method, params, result, errv jsontext.Value
	hasID, hasResult, hasError, dup           bool
}

func refReadMembers(b []byte) (refMembers, bool) {
	var m refMembers
	dec := jsontext.NewDecoder(bytes.NewBuffer(b), jsontext.AllowDuplicateNames(true))
	if _, err := dec.ReadToken(); err != nil {
		return m, false
	}
	seen := 0
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return m, false
		}
		name := tok.String() // a Token is voided by the next read
		v, err := dec.ReadValue()
		if err != nil {
			return m, false
		}
		var slot *jsontext.Value
		var bit int
		switch name {
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
			continue
		}
		if seen&bit != 0 {
			m.dup = true
		}
		seen |= bit
		*slot = v
	}
	if _, err := dec.ReadToken(); err != nil {
		return m, false
	}
	if _, err := dec.ReadToken(); err == nil {
		return m, false // trailing data after the object
	}
	return m, true
}

func refDecodeObject(b []byte) Frame {
	m, ok := refReadMembers(b)
	if !ok {
		return Frame{Problem: ProblemJSON}
	}
	var f Frame
	if m.hasID {
		switch m.id.Kind() {
		case '"', 'n':
			f.ID = ID{raw: string(m.id)}
		case '0':
			if !refIsInteger(m.id) {
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
		f.Method = refUnquote(m.method)
		f.Params = m.params
		if m.hasID {
			f.Kind = KindRequest
		} else {
			f.Kind = KindNotification
		}
	case m.hasError:
		f.Kind = KindError
		f.ErrorData, f.ErrorCode, f.ErrorMessage, f.CodeOK = refDecodeError(m.errv)
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
	if f.Problem == "" && (m.version.Kind() != '"' || refUnquote(m.version) != "2.0") {
		f.Problem = ProblemVersion
	}
	if f.Problem == "" && m.dup {
		f.Problem = ProblemDuplicateID
	}
	return f
}

// decodeError reads an error object: its data, integer code and message.
func refDecodeError(v jsontext.Value) (data jsontext.Value, code int64, msg string, ok bool) {
	if v.Kind() != '{' {
		return nil, 0, "", false
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(v))
	if _, err := dec.ReadToken(); err != nil {
		return nil, 0, "", false
	}
	codeOK, msgOK := false, false
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, 0, "", false
		}
		name := tok.String() // a Token is voided by the next read
		val, err := dec.ReadValue()
		if err != nil {
			return nil, 0, "", false
		}
		switch name {
		case "code":
			if val.Kind() == '0' && refIsInteger(val) {
				n, err := strconv.ParseInt(string(val), 10, 64)
				code, codeOK = n, err == nil
			}
		case "message":
			if val.Kind() == '"' {
				msg, msgOK = refUnquote(val), true
			}
		case "data":
			data = val
		}
	}
	return data, code, msg, codeOK && msgOK
}

func refIsInteger(v jsontext.Value) bool {
	return !bytes.ContainsAny(v, ".eE")
}

func refUnquote(v jsontext.Value) string {
	s, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return ""
	}
	return string(s)
}
