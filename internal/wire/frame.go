package wire

import "github.com/go-json-experiment/json/jsontext"

// Kind classifies a frame.
type Kind uint8

// The kinds of frame. The zero Kind is KindInvalid.
const (
	KindInvalid      Kind = iota // not a JSON-RPC 2.0 message; see Frame.Problem
	KindRequest                  // method and id
	KindNotification             // method, no id
	KindResponse                 // id and result
	KindError                    // error (id may be absent or null)
	KindBatch                    // a JSON array of messages
)

var kindNames = [...]string{"invalid", "request", "notification", "response", "error", "batch"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Frame is one decoded JSON-RPC message. Raw values alias the decoded input.
type Frame struct {
	Kind Kind
	// ID is the id member; zero when absent.
	ID ID
	// Method is set for requests and notifications.
	Method string
	// Params, Result and ErrorData hold raw JSON values; nil when absent.
	Params    jsontext.Value
	Result    jsontext.Value
	ErrorData jsontext.Value
	// ErrorCode and ErrorMessage are set for KindError. CodeOK reports
	// whether code was an integer.
	ErrorCode    int64
	ErrorMessage string
	CodeOK       bool
	// Problem says why the frame is KindInvalid, or why a classified frame
	// is nonetheless non-conforming (for example a wrong jsonrpc member).
	Problem string
	// Batch holds the elements of a KindBatch frame.
	Batch []Frame
}

// IsMessage reports whether f is a classified JSON-RPC message (not invalid,
// not a batch).
func (f *Frame) IsMessage() bool {
	return f.Kind != KindInvalid && f.Kind != KindBatch
}

// Describe names a message for texts such as findings: its kind, method
// and id ("request tools/call id 7").
func (f *Frame) Describe() string {
	out := f.Kind.String()
	if f.Method != "" {
		out += " " + f.Method
	}
	if !f.ID.IsZero() {
		out += " id " + f.ID.Raw()
	}
	return out
}
