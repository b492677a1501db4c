package cli

import (
	"io"
	"log"
	"net/http"
	"time"
)

// serverIdle is how long every listener mcptrail runs keeps a keep-alive
// connection that carries no request (an open event stream is not idle)
// before closing it: a client holding idle connections open cannot pile
// them up. Clients reconnect for their next request.
const serverIdle = 2 * time.Minute

// serverReadHeader bounds how long a client may take to send a request's
// headers.
const serverReadHeader = 30 * time.Second

// newServer returns the http.Server of a listener: h behind the header
// and idle timeouts (idle, serverIdle outside tests), and net/http's own
// complaints discarded (what matters is in the capture).
func newServer(h http.Handler, idle time.Duration) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serverReadHeader,
		IdleTimeout:       idle,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
}
