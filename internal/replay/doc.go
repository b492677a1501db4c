// Package replay drives a real MCP server with the client side of a
// capture: the handshake of the capture's era (initialize or
// server/discover), then each recorded client call in order, answering the
// server's questions with the answers the recording holds (MRTR
// input_required rounds are retried with the server's new requestState and
// the recorded inputResponses; legacy server-initiated requests get the
// recorded response). The traffic goes through the real stdio tap, run in
// this process, so the replay writes a new capture that can be compared
// with the original (internal/diff).
//
// It sits beside the views: it reads a store snapshot of the original
// (NewPlan), never re-correlates it, and hands the new capture to the
// caller. A question the recording has no answer for is cancelled and
// reported, never guessed.
//
// Concurrency: a Plan is immutable once built and may be shared. Stdio
// runs one replay; it owns the goroutines and the server process it starts
// and returns only when all of them are gone.
package replay
