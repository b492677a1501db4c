// Package wire decodes JSON-RPC 2.0 frames as they appear on an MCP
// transport. It sits at the bottom of the data flow: the tap hands it bytes,
// the store reads the Frames it returns. It knows nothing of MCP and does no
// I/O.
//
// Malformed input is data, not an error: Decode always returns a Frame, whose
// Kind is KindInvalid and whose Problem says why when the bytes are not a
// JSON-RPC message. Decode is safe for concurrent use; a Frame is a value that
// aliases the input bytes it was decoded from.
package wire
