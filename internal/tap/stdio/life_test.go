//go:build unix

package stdio_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
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
		wantBy    string
	}{
		{"after the grace period", 100 * time.Millisecond, []os.Signal{syscall.SIGTERM}, "still running 100ms after SIGTERM", capture.StopKillAfter},
		{"second signal", time.Hour, []os.Signal{syscall.SIGTERM, syscall.SIGHUP}, "a second stop signal (SIGHUP)", capture.StopClient},
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
				if r.Note == capture.NoteServerExit && r.StoppedBy != tc.wantBy {
					t.Errorf("server-exit stopped_by %q, want %q", r.StoppedBy, tc.wantBy)
				}
			}
		})
	}
}

// TestRunStoppedBy checks the server-exit note's stopped_by and
// eof_age_us: a server that ends on the stop signal passed on to it (by
// dying of it, or exiting with any status) ended on the client's request;
// one that dies of another signal crashed. With closeFirst the
// client closes stdin 300ms before its SIGTERM, and the note says how long
// the server had had EOF.
func TestRunStoppedBy(t *testing.T) {
	t.Parallel()
	const wait = 300 * time.Millisecond
	loop := `echo ready; while :; do sleep 0.05; done`
	tests := []struct {
		name       string
		script     string
		closeFirst bool
		wantBy     string
		wantExit   string // "SIGTERM" or a status
	}{
		{"dies of it", `echo ready; exec sleep 30`, false, capture.StopClient, "SIGTERM"},
		{"dies of it after EOF", `echo ready; exec sleep 30`, true, capture.StopClient, "SIGTERM"},
		{"exits 0", `trap 'exit 0' TERM; ` + loop, true, capture.StopClient, "0"},
		{"exits 143", `trap 'exit 143' TERM; ` + loop, false, capture.StopClient, "143"},
		{"exits 1", `trap 'exit 1' TERM; ` + loop, false, capture.StopClient, "1"},
		{"dies of another signal", `trap 'trap - SEGV; kill -SEGV $$' TERM; ` + loop, false, "", "SIGSEGV"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sigs := make(chan os.Signal, 1)
			out := &readyWriter{ready: make(chan struct{})}
			pr, pw := io.Pipe()
			defer pw.Close()
			go func() {
				<-out.ready
				if tc.closeFirst {
					pw.Close()
					time.Sleep(wait) // the age eof_age must report, on the tap's real clock
				}
				sigs <- syscall.SIGTERM
			}()
			_, recs := runWithin(t, 20*time.Second, &stdio.Options{
				Command: []string{"sh", "-c", tc.script},
				Stdin:   pr, Stdout: out, Signals: sigs, KillAfter: 10 * time.Second,
			})
			var exit *capture.Record
			for i := range recs {
				if recs[i].Note == capture.NoteServerExit {
					exit = &recs[i]
				}
			}
			if exit == nil {
				t.Fatalf("no server-exit note in %v", noteSummary(recs))
			}
			got := exit.Signal
			if exit.Exit != nil {
				got = strconv.Itoa(*exit.Exit)
			}
			if got != tc.wantExit || exit.StoppedBy != tc.wantBy {
				t.Errorf("server-exit %s stopped_by %q, want %s stopped_by %q", got, exit.StoppedBy, tc.wantExit, tc.wantBy)
			}
			age := time.Duration(exit.EOFAgeUS) * time.Microsecond
			switch {
			case tc.wantBy == "" && age != 0:
				t.Errorf("eof_age_us %d on a crash", exit.EOFAgeUS)
			case tc.wantBy != "" && tc.closeFirst && age < wait*9/10: // the tap reads its clock a little after the test's
				t.Errorf("eof_age %v, want at least %v", age, wait)
			case !tc.closeFirst && age != 0:
				t.Errorf("eof_age %v with stdin open", age)
			}
		})
	}
}
