// Package mock serves the server side of a capture to a live client: the
// `mcptrail mock` command.
//
// It sits beside the views in the data flow: it reads a store.Snapshot
// (calls, MRTR operations, the frames by seq) and never correlates frames
// itself; which recorded response answers which recorded request is the
// store's word. A Script is built once from a snapshot and is immutable; a
// Mock holds the live session's state (which recorded calls were used, the
// requestStates it minted, the legacy requests it is waiting on) behind one
// mutex, so Serve may be called from many goroutines (one per HTTP
// request). Output goes through the Sender each call is given.
package mock
