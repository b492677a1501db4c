//go:build unix

package stdio_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/stdio"
)

// brokenWriter accepts limit bytes, then fails as a pipe whose reader
// left does.
type brokenWriter struct {
	mu    sync.Mutex
	n     int
	limit int
}

func (w *brokenWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := max(w.limit-w.n, 0)
	if len(p) <= room {
		w.n += len(p)
		return len(p), nil
	}
	w.n += room
	return room, syscall.EPIPE
}

// readyWriter closes ready at the first write.
type readyWriter struct {
	once  sync.Once
	ready chan struct{}
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.ready) })
	return len(p), nil
}

// noteSummary lists the notes as "kind[:signal]".
func noteSummary(recs []capture.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Type == capture.TypeNote && r.Note != capture.NoteDiscarded {
			s := r.Note
			if r.Signal != "" {
				s += ":" + r.Signal
			}
			out = append(out, s)
		}
	}
	return out
}

// runWithin runs opts and fails the test if Run takes longer than d.
func runWithin(t *testing.T, d time.Duration, opts *stdio.Options) (*stdio.Result, []capture.Record) {
	t.Helper()
	var capt bytes.Buffer
	opts.Capture = &capt
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := stdio.Run(ctx, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("Run took over %v", d)
	}
	_, recs, _ := readCapture(t, capt.Bytes())
	if last := recs[len(recs)-1]; last.Type != capture.TypeEnd {
		t.Errorf("last record %+v, want end", last)
	}
	return res, recs
}

func TestRunClientGone(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	res, recs := runWithin(t, 20*time.Second, &stdio.Options{
		Command: []string{"yes"}, Stdin: pr, Stdout: &brokenWriter{limit: 10},
	})
	if res.Signal != "SIGTERM" {
		t.Errorf("Result %+v, want the server killed by SIGTERM", res)
	}
	want := []string{"client-gone", "signal:SIGTERM", "server-exit:SIGTERM"}
	if diff := cmp.Diff(want, noteSummary(recs)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	var s2c, discarded int64
	for _, r := range recs {
		switch {
		case r.Type == capture.TypeFrame:
			s2c += int64(r.Size) + 1
		case r.Note == capture.NoteClientGone && !strings.Contains(r.Text, "broken pipe"):
			t.Errorf("client-gone note %q does not say why", r.Text)
		case r.Note == capture.NoteDiscarded:
			discarded = r.LostBytes
		}
	}
	// Recorded: the chunk whose write failed, at most; the rest was discarded.
	if s2c > 256<<10 {
		t.Errorf("%d bytes of server output recorded after the client left at byte 10", s2c)
	}
	t.Logf("recorded %d bytes, discarded %d", s2c, discarded)
}

func TestRunStopEscalation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		killAfter time.Duration
		signals   []os.Signal
		wantText  string
	}{
		{"after the grace period", 100 * time.Millisecond, []os.Signal{syscall.SIGTERM}, "still running 100ms after SIGTERM"},
		{"second signal", time.Hour, []os.Signal{syscall.SIGTERM, syscall.SIGHUP}, "a second stop signal (SIGHUP)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sigs := make(chan os.Signal, len(tc.signals))
			out := &readyWriter{ready: make(chan struct{})}
			go func() {
				<-out.ready
				for _, s := range tc.signals {
					sigs <- s
				}
			}()
			pr, pw := io.Pipe()
			defer pw.Close()
			res, recs := runWithin(t, 20*time.Second, &stdio.Options{
				Command: []string{"sh", "-c", `trap "" TERM HUP; echo ready; exec sleep 30`},
				Stdin:   pr, Stdout: out, Signals: sigs, KillAfter: tc.killAfter,
			})
			if res.ExitCode != 137 || res.Signal != "SIGKILL" {
				t.Errorf("Result %+v, want 137 SIGKILL", res)
			}
			want := []string{"signal:SIGTERM", "signal:SIGKILL", "server-exit:SIGKILL"}
			if diff := cmp.Diff(want, noteSummary(recs)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			for _, r := range recs {
				if r.Signal == "SIGKILL" && r.Note == capture.NoteSignal && !strings.Contains(r.Text, tc.wantText) {
					t.Errorf("kill note %q, want it to say %q", r.Text, tc.wantText)
				}
			}
		})
	}
}
