package wire

import "strconv"

// ID is a JSON-RPC id as it was written on the wire: the raw JSON token, so
// that the number 1 and the string "1" stay different ids. The zero ID means
// the message had no id member at all.
type ID struct {
	raw string
}

// NewID returns the ID whose raw JSON token is raw (for example `1`, `"a"`
// or `null`). It does not validate raw.
func NewID(raw string) ID { return ID{raw: raw} }

// IntID returns the numeric ID n.
func IntID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// StringID returns the string ID s.
func StringID(s string) ID { return ID{raw: strconv.Quote(s)} }

// Raw returns the id's JSON token exactly as on the wire, or "" when absent.
func (id ID) Raw() string { return id.raw }

// IsZero reports whether the message carried no id member.
func (id ID) IsZero() bool { return id.raw == "" }

// IsNull reports whether the id is the JSON null.
func (id ID) IsNull() bool { return id.raw == "null" }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return len(id.raw) > 0 && id.raw[0] == '"' }

// String returns the raw token, or "<none>" when absent.
func (id ID) String() string {
	if id.raw == "" {
		return "<none>"
	}
	return id.raw
}

// MarshalJSON writes the raw token (null when absent).
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}
