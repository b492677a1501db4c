package httpproxy

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// finishRequest runs the request tap's finishRequest, which may still read
// from the client. When the request's context ends first (the client went
// away, or mcptrail is stopping and cancelled every request) a read
// deadline unblocks that read, so a body that never ends cannot keep the
// handler, and the end of the capture, waiting.
func finishRequest(ctx context.Context, w http.ResponseWriter, b *bodyTap) {
	var (
		mu       sync.Mutex
		returned bool
	)
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		// The ResponseWriter must not be used once the handler returned.
		if !returned {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
		}
	})
	defer func() {
		stop()
		mu.Lock()
		returned = true
		mu.Unlock()
	}()
	b.finishRequest()
}

// fullDuplex lets the request body keep flowing to the target while the
// answer flows back. By default Go's HTTP/1 server, once the response
// starts, reads and closes whatever the handler has not read of the
// request body (golang/go#40747): those bytes never reached the target
// or the capture, and the transport's next read of the body failed, which
// closed the upstream connection an SSE answer was streaming on. HTTP/2
// is always full duplex.
func fullDuplex(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor == 1 {
		// It fails only for a ResponseWriter that cannot do it; nothing
		// else can be done then.
		_ = http.NewResponseController(w).EnableFullDuplex()
	}
}
