package cli

import (
	"context"
	"net/http"
	"os"
	"sync"
	"time"
)

// shutdownGrace is how long a stop waits for open exchanges (a long SSE
// stream) before cutting them.
const shutdownGrace = 2 * time.Second

// handlerExitWait bounds how long a stop waits, once the open exchanges
// were cut, for their handlers to record how they ended.
const handlerExitWait = 500 * time.Millisecond

// inflight counts the HTTP handlers running, so that a stop can wait for
// them: a handler still running when the capture ends would lose its last
// records (the end of a stream, the note saying it was cut).
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil when nobody waits
}

// wrap returns h counted.
func (f *inflight) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.add(1)
		defer f.add(-1)
		h.ServeHTTP(w, r)
	})
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += d
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// wait waits until no handler runs or d has passed, and reports whether
// none runs.
func (f *inflight) wait(d time.Duration) bool {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return true
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	idle := f.idle
	f.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}

// stopServer stops srv: the listener closes at once, open exchanges get
// shutdownGrace (cut short by another signal on sigs), then every request
// still open is cancelled through cancelRequests and its connection
// closed, and stopServer waits briefly for the handlers to finish.
func stopServer(srv *http.Server, f *inflight, cancelRequests context.CancelFunc, sigs <-chan os.Signal) {
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-sctx.Done():
		}
	}()
	if err := srv.Shutdown(sctx); err != nil {
		cancelRequests()
		_ = srv.Close()
	}
	f.wait(handlerExitWait)
}
