package mcpgopeer

import (
	"bytes"
	"context"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// NewHTTPHandler serves a new server (NewServer) behind mcp-go's
// Streamable HTTP handler, watching what it writes so that the work tool
// can wait until its notifications are on the wire before it returns.
//
// mcp-go (v1.2.1, server/streamable_http.go handlePost) forwards a POST's
// notifications from a goroutine that takes one off the session's channel
// and then locks the response; if the handler returns in between, the
// request path drains the channel, writes the result and closes the
// request's done channel, and the forwarder then drops the notification
// it holds. A tool that sends a log message and two progress
// notifications loses one of them now and then (the log message, seen in
// about one call in fifteen, client straight to server). Waiting for the
// last one to be written closes that window: the forwarder takes them in
// order, and done is not closed while the tool runs.
func NewHTTPHandler() http.Handler {
	wt := &watch{}
	h := server.NewStreamableHTTPServer(NewServer())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), watchKey{}, wt)
		h.ServeHTTP(&watchedWriter{ResponseWriter: w, watch: wt}, r.WithContext(ctx))
	})
}

// watchKey is the context key of a request's *watch.
type watchKey struct{}

// watch tells waiters when a response of the handler wrote the bytes
// they wait for. The zero value is ready to use; it is safe for
// concurrent use.
type watch struct {
	mu      sync.Mutex
	waiters []*waiter
}

// waiter waits for a write that contains every one of marks.
type waiter struct {
	marks [][]byte
	done  chan struct{}
}

// expect registers a waiter for a write holding every one of marks; its
// channel is closed once such a write has reached the response.
func (wt *watch) expect(marks ...[]byte) <-chan struct{} {
	wr := &waiter{marks: marks, done: make(chan struct{})}
	wt.mu.Lock()
	wt.waiters = append(wt.waiters, wr)
	wt.mu.Unlock()
	return wr.done
}

// wrote releases the waiters whose marks p holds.
func (wt *watch) wrote(p []byte) {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	kept := wt.waiters[:0]
	for _, wr := range wt.waiters {
		if containsAll(p, wr.marks) {
			close(wr.done)
			continue
		}
		kept = append(kept, wr)
	}
	wt.waiters = kept
}

func containsAll(p []byte, marks [][]byte) bool {
	for _, m := range marks {
		if !bytes.Contains(p, m) {
			return false
		}
	}
	return true
}

// watchedWriter is a response writer that reports what it wrote to its
// watch. mcp-go writes each SSE event with one Write.
type watchedWriter struct {
	http.ResponseWriter
	watch *watch
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if err == nil {
		w.watch.wrote(p)
	}
	return n, err
}

// Flush flushes the underlying writer; mcp-go streams SSE only through a
// writer that is an http.Flusher.
func (w *watchedWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *watchedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
