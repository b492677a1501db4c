// Package capture owns mcptrail's durable record: the versioned JSONL
// capture format (see docs/capture-format.md), the Writer that appends
// records (and the Spool that holds a frame too large to keep in memory
// until its record is streamed), the streaming Reader, the Follower that
// reads a capture while another process appends to it, and the state
// directory where session files live. It sits between the taps (which produce records) and the store (which
// correlates them); it never judges or correlates.
//
// A Writer is not safe for concurrent use; the taps serialise records through
// one goroutine. A Reader is not safe for concurrent use, nor is a
// Follower; a Follower may read a file that a Writer in another goroutine
// or process is appending to.
package capture
