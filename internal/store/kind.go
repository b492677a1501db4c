package store

import "github.com/mcptrail/mcptrail/internal/wire"

// Kind classifies a frame in the store's view: one of the JSON-RPC kinds
// wire.Decode tells apart, or KindHTTPStatus, which only a transport can
// say (wire knows no HTTP).
type Kind uint8

// The kinds of frame. The zero Kind is KindInvalid.
const (
	KindInvalid      = Kind(wire.KindInvalid)
	KindRequest      = Kind(wire.KindRequest)
	KindNotification = Kind(wire.KindNotification)
	KindResponse     = Kind(wire.KindResponse)
	KindError        = Kind(wire.KindError)
	KindBatch        = Kind(wire.KindBatch)
	// KindHTTPStatus is an HTTP request or response that carries no
	// JSON-RPC message (a 202, a 401, a GET): see isStatusFrame.
	KindHTTPStatus Kind = 0x80
)

// String returns the kind's lower-case name: wire's name, or
// "http-status".
func (k Kind) String() string {
	if k == KindHTTPStatus {
		return "http-status"
	}
	return wire.Kind(k).String()
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }
