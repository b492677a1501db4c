// Package replay drives a real MCP server with the client side of a
// capture: the handshake of the capture's era (initialize or
// server/discover), then each recorded client call in order, answering the
// server's questions with the answers the recording holds (MRTR
// input_required rounds are retried with the server's new requestState and
// the recorded inputResponses; legacy server-initiated requests get the
// recorded response). The traffic goes through the real stdio tap (Stdio)
// or Streamable HTTP tap (HTTP, on a loopback port), run in this process,
// so the replay writes a new capture that can be compared with the
// original (internal/diff). The driver talks to a transport: the stdio
// stream (conn.go) or one POST a message (httpconn.go). A server request
// that the call's own recorded answers do not cover gets any recorded
// answer of the same method and params (pool.go), else it is refused at
// once; after the last call a stdio replay waits for the questions the
// recorded server still asked on a timer (driver.settle). Learn compares
// two replays against the same server: what differs between them is the
// server's own noise (a fresh id, a timestamp), which Comparison.Quiet
// leaves out (noise.go).
//
// It sits beside the views: it reads a store snapshot of the original
// (NewPlan), never re-correlates it, and hands the new capture to the
// caller. A question the recording has no answer for is cancelled and
// reported, never guessed. Unless the caller allows destructive tools, a
// tools/call is sent only when the server's own tools/list (asked for by
// the replay when need be), else the capture's, finds the tool not
// destructive (tools.go).
//
// Concurrency: a Plan is immutable once built and may be shared. Stdio
// and HTTP run one replay each; they own the goroutines, the server
// process or listener they start, and return only when all are gone.
package replay
