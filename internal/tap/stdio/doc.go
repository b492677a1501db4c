// Package stdio is mcptrail's stdio tap: it spawns an MCP server, relays the
// client's bytes to the server's stdin and the server's stdout back to the
// client, byte for byte, and emits capture records for what crossed. It sits
// between the peers and the capture package; it never correlates.
//
// # Relay
//
// Each direction is one goroutine that reads a chunk and forwards it at
// once: no re-encoding and no line buffering, so CRLF, odd whitespace,
// invalid UTF-8, lines of many megabytes and a last line without a newline
// pass unchanged. The server's stderr is copied to Options.Stderr and
// captured one line per stderr record; once the client has closed the pipe
// it read our stderr from (EPIPE), the copying stops without a relay-error
// note and the capturing goes on.
//
// # Ordering
//
// seq numbers frames in the order their bytes crossed the tap. Both relays
// share one counter and one capture queue (internal/tap/capq, which the
// HTTP tap uses too) under the queue's mutex: a relay that has read a chunk
// takes the seq numbers of the chunk's newlines and appends the chunk to
// the queue while holding the lock, and only then writes the chunk onward. A request therefore has its seq before the server can have
// seen it, so a response never gets a lower seq than its request, however
// reads are chunked. The queue is FIFO, so the capture file is in seq
// order. A line that spans chunks takes the seq and time of the chunk
// holding its newline.
//
// # Capture policy: backpressure, never drop
//
// One goroutine splits queued chunks into lines and writes records. The
// queue is bounded (32 MiB of traffic, 16,384 chunks): when the capture
// cannot keep up, the relays wait for room, which slows the peers down
// (backpressure); nothing is dropped. If writing the capture fails (a full
// disk), the tap keeps forwarding the traffic, stops writing, counts the
// frames and bytes it could not record, tries to append a capture-gap note
// with those counts at the end, and Run returns the error.
//
// To keep the relays fast, nothing on their path waits for the capture
// while there is room: the capture goroutine polls the queue every
// millisecond while traffic flows (no per-chunk thread wake-up); during a
// burst (over 256 KiB queued while the relays are busy) it lets chunks
// wait so the burst is forwarded first and recorded right after it (at
// most 50 ms later, or sooner when half the queue is used); and it flushes
// the file whenever it has caught up. A kill -9
// therefore loses at most what was queued or buffered; the reader reports a
// torn last line. The server's pipes are kept in blocking mode, so a relay
// waiting for the server is woken by the kernel directly, as cat is.
//
// # Lifecycle
//
// The first stop signal (Options.Signals) is passed on to the server; if
// the server still runs Options.KillAfter later, or a second signal comes,
// it is killed. The client is gone when a write to it fails (EPIPE), or
// when it closed our stdin, the server still runs KillAfter later, and
// the system reports the client's end of our stdout closed
// (hangup_unix.go): the tap notes client-gone, sends the server SIGTERM
// with the same escalation, and reads and discards what the server writes
// from then on. A client that only closed our stdin is still there: the
// server's stdin is closed and Run waits, as a direct connection would. On Linux the server gets SIGKILL when mcptrail dies
// (Pdeathsig); on Windows a kill-on-close job object ends its process
// tree; elsewhere it sees EOF on its stdin. Each platform's part is a
// file of its own (process_*.go, procattr_*.go, pipe_*.go, hangup_*.go).
//
// # Concurrency
//
// Run may be called concurrently with different Options; one Run owns its
// Options' streams until it returns. Run returns when the server has exited
// and its stdout is drained; it does not wait for the client to close its
// end, so a goroutine blocked reading Options.Stdin may outlive Run (its
// later reads are discarded).
package stdio
