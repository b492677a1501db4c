package replay_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/replay"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

// TestReplayLeavesNothing runs replay.Stdio in this process against a
// server that answers, one that hangs and one that crashes: after each,
// the goroutine and open-file counts are back where they were. It does
// not run in parallel, so the counts are this test's.
func TestReplayLeavesNothing(t *testing.T) {
	plan := loadPlan(t, recording(t, false))
	cases := []struct {
		name    string
		command []string
		want    error // errors.Is the replay's error; nil for none
	}{
		{"answers", []string{bins.sdkserver}, nil},
		{"hangs", []string{bins.stubborn, "-ignore", "-hold"}, replay.ErrTimeout},
		{"crashes", []string{"/bin/sh", "-c", "read line; exit 3"}, replay.ErrServerGone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := testbin.CountUsage()
			_, err := replay.Stdio(context.Background(), plan, &replay.Options{
				Command: tc.command, Capture: new(bytesSink), Timeout: time.Second,
				Header: capture.Record{SessionID: "leaktest"},
			})
			if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("replay.Stdio: %v, want %v", err, tc.want)
			}
			testbin.NoLeak(t, base, 5*time.Second)
		})
	}
}

// bytesSink is a capture that keeps nothing.
type bytesSink struct{ n int }

func (b *bytesSink) Write(p []byte) (int, error) { b.n += len(p); return len(p), nil }

// loadPlan builds the replay plan of the capture at path.
func loadPlan(t *testing.T, path string) *replay.Plan {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(r, &store.Options{Source: f})
	if err != nil {
		t.Fatal(err)
	}
	p, err := replay.NewPlan(snap, nil)
	if err != nil {
		t.Fatalf("planning %s: %v", filepath.Base(path), err)
	}
	return p
}

// TestReplayHTTPLeavesNothing runs replay.HTTP in this process against an
// HTTP server that answers, one that never answers and an address nobody
// listens on: after each, the goroutine and open-file counts are back
// where they were (the tap's listener, its exchanges and the POSTs still
// reading are gone). The servers start before the counts are taken.
func TestReplayHTTPLeavesNothing(t *testing.T) {
	plan := loadPlan(t, recording(t, false))
	answers := serveHTTP(t, false, "")
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Never answers; returns when the tap gives up (net/http notices a
		// closed connection only once the body is read).
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	cases := []struct {
		name   string
		target string
		want   error // errors.Is the replay's error; nil for none
	}{
		{"answers", answers, nil},
		{"hangs", hang.URL + "/mcp", replay.ErrTimeout},
		{"unreachable", dead, replay.ErrServerGone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			target, err := url.Parse(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			base := testbin.CountUsage()
			_, err = replay.HTTP(context.Background(), plan, &replay.Options{
				Target: target, Capture: new(bytesSink), Timeout: time.Second,
				Header: capture.Record{SessionID: "leaktest"},
			})
			if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("replay.HTTP: %v, want %v", err, tc.want)
			}
			testbin.NoLeak(t, base, 5*time.Second)
		})
	}
}
