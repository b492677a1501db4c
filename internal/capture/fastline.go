package capture

import (
	"bytes"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
)

// This file decodes the frame and stderr records the Writer writes without
// reflection: reflection-based json.Unmarshal cost more than the whole
// store on a large capture. It accepts only the exact shape WriteLine
// produces (compact, members the Writer writes, strings without escapes
// except where noted) and reports false for anything else, so that the
// caller falls back to json.Unmarshal. Whatever it accepts, it decodes to
// the same Record Unmarshal would (FuzzFastLine checks this).

// fastState is what the fast path keeps between lines.
type fastState struct {
	// lastTime and lastTimeText cache the last parsed time: the Writer
	// stamps every line of a chunk with the same instant.
	lastTime     time.Time
	lastTimeText []byte
	// arena holds copies of msg values, so that records do not need one
	// allocation each. Each copy is capped so appends cannot overlap.
	arena []byte
	// owned is set while the line being decoded is the reader's own
	// allocation (a line longer than its buffer), which values may share.
	owned bool
}

// member bits, to refuse duplicate names (Unmarshal lets the last win).
const (
	fSeq = 1 << iota
	fTime
	fDir
	fConn
	fSize
	fMsg
	fRaw
	fText
	fNoEOL
	fRedacted
)

// decodeFast decodes line into rec (already reset) if it is a frame or
// stderr record in the Writer's shape, and reports whether it did.
func (st *fastState) decodeFast(line []byte, rec *Record) bool {
	var i int
	switch {
	case bytes.HasPrefix(line, []byte(`{"type":"frame"`)):
		rec.Type, i = TypeFrame, len(`{"type":"frame"`)
	case bytes.HasPrefix(line, []byte(`{"type":"stderr"`)):
		rec.Type, i = TypeStderr, len(`{"type":"stderr"`)
	default:
		return false
	}
	seen := 0
	for i < len(line) && line[i] == ',' {
		name, next := plainString(line, i+1)
		if name == nil || next >= len(line) || line[next] != ':' {
			return false
		}
		bit, end := st.member(line, next+1, string(name), rec)
		if bit == 0 || end < 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		i = end
	}
	return i == len(line)-1 && line[i] == '}'
}

// member decodes the value of member name starting at line[i] into rec.
// It returns the member's bit and the index after the value, or 0 or -1
// when the fast path cannot take it.
func (st *fastState) member(line []byte, i int, name string, rec *Record) (int, int) {
	switch name {
	case "seq":
		n, end := plainUint(line, i)
		rec.Seq = n
		return fSeq, end
	case "size":
		n, end := plainUint(line, i)
		if n > uint64(maxInt) {
			return 0, -1
		}
		rec.Size = int(n)
		return fSize, end
	case "time":
		s, end := plainString(line, i)
		if s == nil || !st.parseTime(s, &rec.Time) {
			return 0, -1
		}
		return fTime, end
	case "dir":
		s, end := plainString(line, i)
		rec.Dir = internDir(s)
		return fDir, stringEnd(s, end)
	case "conn":
		s, end := plainString(line, i)
		rec.Conn = string(s)
		return fConn, stringEnd(s, end)
	case "raw", "text":
		return st.textMember(line, i, name, rec)
	case "msg":
		return st.msgMember(line, i, rec)
	case "noeol":
		return boolMember(line, i, &rec.NoEOL, fNoEOL)
	case "redacted":
		return boolMember(line, i, &rec.Redacted, fRedacted)
	}
	return 0, -1
}

const maxInt = int(^uint(0) >> 1)

// boolMember decodes a true or false member value into *v.
func boolMember(line []byte, i int, v *bool, bit int) (int, int) {
	switch {
	case bytes.HasPrefix(line[i:], []byte("true")):
		*v = true
		return bit, i + 4
	case bytes.HasPrefix(line[i:], []byte("false")):
		return bit, i + 5
	}
	return 0, -1
}

// stringEnd passes end through when s was a string, else -1.
func stringEnd(s []byte, end int) int {
	if s == nil {
		return -1
	}
	return end
}

func internDir(s []byte) Dir {
	switch string(s) {
	case string(C2S):
		return C2S
	case string(S2C):
		return S2C
	}
	return Dir(s)
}

// textMember decodes raw or text, whose strings may hold escapes.
func (st *fastState) textMember(line []byte, i int, name string, rec *Record) (int, int) {
	s, end := jsonString(line, i)
	if s == nil {
		return 0, -1
	}
	if name == "raw" {
		rec.Raw = string(s)
		return fRaw, end
	}
	rec.Text = string(s)
	return fText, end
}

// msgMember finds the end of the embedded message, validates it as
// Unmarshal would and keeps a copy.
func (st *fastState) msgMember(line []byte, i int, rec *Record) (int, int) {
	if i >= len(line) || (line[i] != '{' && line[i] != '[') {
		return 0, -1
	}
	// jsonraw.ValidEnd finds the end of most messages and vouches for
	// them in one pass; the rest are bracket-counted and left to jsontext.
	end := jsonraw.ValidEnd(line, i)
	if end < 0 {
		if end = containerEnd(line, i); end < 0 {
			return 0, -1
		}
		if !jsontext.Value(line[i:end]).IsValid(jsontext.AllowDuplicateNames(true)) {
			return 0, -1
		}
	}
	rec.Msg = st.keep(line[i:end])
	return fMsg, end
}

// keep copies v into the arena, or shares it when the line is owned.
func (st *fastState) keep(v []byte) jsontext.Value {
	const chunk = 64 << 10
	if st.owned {
		return jsontext.Value(v[:len(v):len(v)])
	}
	if len(v) > chunk/4 {
		return append(jsontext.Value(nil), v...)
	}
	if cap(st.arena)-len(st.arena) < len(v) {
		st.arena = make([]byte, 0, chunk)
	}
	start := len(st.arena)
	st.arena = append(st.arena, v...)
	return jsontext.Value(st.arena[start:len(st.arena):len(st.arena)])
}

// containerEnd returns the index just past the object or array starting at
// line[i], by counting brackets outside strings, or -1. Deeply nested
// values are left to Unmarshal, whose depth limit counts the record too.
func containerEnd(line []byte, i int) int {
	depth := 0
	for ; i < len(line); i++ {
		switch line[i] {
		case '"':
			end := jsonraw.SkipString(line, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '{', '[':
			depth++
			if depth > 1000 {
				return -1
			}
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// plainString returns the contents of the string starting at line[i] and
// the index after it, or nil when it is not a string of printable ASCII
// without escapes (anything else is left to Unmarshal).
func plainString(line []byte, i int) ([]byte, int) {
	if i >= len(line) || line[i] != '"' {
		return nil, -1
	}
	for j := i + 1; j < len(line); j++ {
		switch c := line[j]; {
		case c == '"':
			return line[i+1 : j], j + 1
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, -1
		}
	}
	return nil, -1
}

// jsonString returns the unquoted contents of the string starting at
// line[i] and the index after it, or nil when it is not a valid JSON
// string. The result may alias line.
func jsonString(line []byte, i int) ([]byte, int) {
	if s, end := plainString(line, i); s != nil {
		return s, end
	}
	end := jsonraw.SkipString(line, i)
	if end < 0 {
		return nil, -1
	}
	s, ok := jsonraw.UnquoteStrict(nil, line[i:end])
	if !ok {
		return nil, -1
	}
	return s, end
}

// plainUint parses a JSON integer without sign, fraction or exponent that
// fits a uint64, returning the index after it, or -1.
func plainUint(line []byte, i int) (uint64, int) {
	start := i
	var n uint64
	for ; i < len(line) && '0' <= line[i] && line[i] <= '9'; i++ {
		d := uint64(line[i] - '0')
		if n > (^uint64(0)-d)/10 {
			return 0, -1
		}
		n = n*10 + d
	}
	switch {
	case i == start, line[start] == '0' && i-start > 1:
		return 0, -1
	case i < len(line) && (line[i] == '.' || line[i] == 'e' || line[i] == 'E'):
		return 0, -1
	}
	return n, i
}

// parseTime parses the Writer's time format, 2006-01-02T15:04:05.999999999Z,
// with time.Time.UnmarshalText as Unmarshal does; the shape check keeps out
// what Unmarshal would additionally refuse.
func (st *fastState) parseTime(s []byte, t *time.Time) bool {
	if st.lastTimeText != nil && bytes.Equal(s, st.lastTimeText) {
		*t = st.lastTime
		return true
	}
	if !timeShape(s) || t.UnmarshalText(s) != nil {
		return false
	}
	st.lastTime, st.lastTimeText = *t, append(st.lastTimeText[:0], s...)
	return true
}

// timeShape reports whether s is YYYY-MM-DDTHH:MM:SS, an optional fraction
// of 1 to 9 digits, then Z.
func timeShape(s []byte) bool {
	const layout = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(layout)+1 || s[len(s)-1] != 'Z' {
		return false
	}
	for i := range len(layout) {
		if layout[i] == 'd' {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		} else if s[i] != layout[i] {
			return false
		}
	}
	frac := s[len(layout) : len(s)-1]
	if len(frac) == 0 {
		return true
	}
	if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
		return false
	}
	for _, c := range frac[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
