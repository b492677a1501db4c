package httpproxy

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestStreamEndNotes: a client that closes an SSE stream once it read its
// answer leaves no stream-aborted note; one that closes it before the
// answer, or a target that cuts the stream after the answer, does. The
// note says the client closed the stream (stopped_by client: in
// 2026-07-28 that cancels the request) only when it did: not for the
// target's cut, nor for a stream mcptrail's own stop ended (the server's
// base context cancelled with ErrStopping).
func TestStreamEndNotes(t *testing.T) {
	t.Parallel()
	const (
		progress = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n"
		result   = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
		failure  = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-1,\"message\":\"x\"}}\n\n"
	)
	tests := []struct {
		name string
		// events are sent, then the target waits for the client to go
		// away, or cuts the connection when cut is set.
		events []string
		cut    bool
		// stop ends the stream by mcptrail's stop, not the client.
		stop bool
		// read is how many events the client reads before it closes.
		read  int
		notes []string
	}{
		{"closed after the result", []string{progress, result}, false, false, 2, nil},
		{"closed after an error answer", []string{failure}, false, false, 1, nil},
		{"closed before the answer", []string{progress}, false, false, 1, []string{NoteStreamAborted + " by client"}},
		{"target cut after the answer", []string{result}, true, false, 1, []string{NoteStreamAborted}},
		{"mcptrail stops before the answer", []string{progress}, false, true, 1, []string{NoteStreamAborted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				for _, e := range tt.events {
					io.WriteString(w, e)
				}
				w.(http.Flusher).Flush()
				if tt.cut {
					panic(http.ErrAbortHandler)
				}
				<-r.Context().Done()
			}))
			defer target.Close()
			p, plain, buf := proxyTo(t, target.URL)
			plain.Close() // this test serves p itself, with a base context
			base, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			front := httptest.NewUnstartedServer(p)
			front.Config.BaseContext = func(net.Listener) context.Context { return base }
			front.Start()
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(resp.Body)
			for range tt.read * 2 { // a data line and a blank line each
				if _, err := br.ReadString('\n'); err != nil {
					t.Fatalf("reading the events: %v", err)
				}
			}
			if tt.cut {
				// Wait for the cut to reach the client, so that it is
				// the target, not the client, that ended the stream.
				if _, err := io.Copy(io.Discard, br); err == nil {
					t.Error("the cut stream ended cleanly at the client")
				}
			}
			if tt.stop {
				stop(ErrStopping)
				// The proxy's handler sees its context done first; then
				// the client goes too.
				_, _ = io.Copy(io.Discard, br)
			}
			cancel()
			resp.Body.Close()
			front.Close()
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			var notes []string
			for _, r := range buf.records(t) {
				if r.Type == capture.TypeNote {
					n := r.Note
					if r.StoppedBy != "" {
						n += " by " + r.StoppedBy
					}
					notes = append(notes, n)
				}
			}
			if diff := cmp.Diff(tt.notes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}
