// Package httpproxy is mcptrail's Streamable HTTP tap: a reverse proxy
// (net/http/httputil.ReverseProxy) in front of one MCP endpoint, or a
// forward proxy for every origin a client names, that
// forwards every request and response unchanged and emits capture records
// for what crossed. It sits between the peers and the capture package; it
// never correlates (the store does, by exchange and legacy session).
//
// # Relay
//
// POST, GET and DELETE are proxied; event streams are flushed to the
// client after every read (FlushInterval -1), and bodies are streamed: the
// tap wraps each body in a reader that passes bytes on as they come and
// keeps a copy of the current message for its record. The reverse proxy
// asks internal/admit whether each request may reach the target: a Host
// that names no allowed host (DNS rebinding) or a foreign browser Origin
// (a cross-site request) gets 403, a POST to the MCP endpoint that is not
// JSON 415, each noted in the capture. Authorization and cookies are
// forwarded but only their presence (and the auth scheme) is recorded.
//
// # Forward proxy and exchange records
//
// With Options.Forward the Proxy is an HTTP forward proxy instead
// (forward.go): absolute-form requests go to the origin they name, CONNECT
// is tunnelled blind (a capture.TypeTunnel record) or, when
// ForwardOptions.Intercept selects the host, its TLS is terminated and the
// requests inside are served like plain ones (connect.go). Each exchange
// that is not known to be MCP (every forward one, and the reverse proxy's
// requests off the MCP endpoint) is classified without waiting for a byte
// (classify.go): MCP ones are captured as frames, the others as one
// capture.TypeExchange record whose seq, from the same counter, is taken
// before the client can act on the answer and which is filled when the
// answer ends, with credentials redacted in bodies and URLs (xchg.go,
// through redact.CredentialBody and redact.CredentialURL).
//
// # Ordering
//
// One queue (internal/tap/capq, which the stdio tap uses too) holds the
// pending records; its mutex guards the seq counter as well.
// A frame's seq is reserved before the bytes that complete it are handed
// on: when a request body's JSON value closes (or the body ends, or the
// response arrives), when an SSE event is dispatched. Its record is filled
// in when the body ends. The capture goroutine writes records in
// reservation order, so the file is in seq order and a response's seq is
// above its request's.
//
// # Capture policy: backpressure, never drop
//
// The queue is bounded (32 MiB, 16,384 records); a tap that cannot reserve
// waits, which slows the peers down. A failed capture write (a full disk)
// stops recording but not the relaying; the capture goroutine's writer,
// shared with the stdio tap (internal/tap/record), counts exactly what was
// lost, and Close appends a capture-gap note with the counts and reports
// them.
//
// # Lifetime
//
// A Proxy is an http.Handler. Serve it with an http.Server, shut the
// server down, then call Close to write the end record.
package httpproxy
