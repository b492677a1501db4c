package capture

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	edgeFrame = `{"type":"frame","seq":1,"time":"2026-07-28T09:00:00Z","dir":"c2s","size":2,"msg":{}}` + "\n"
	edgeEnd   = `{"type":"end","time":"2026-07-28T09:00:01Z"}` + "\n"
)

// startFollow writes content to a new file and follows it.
func startFollow(t *testing.T, ctx context.Context, content string, opts *FollowOptions) (string, *Follower) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &FollowOptions{}
	}
	opts.Poll = time.Millisecond
	fl, err := Follow(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fl.Close() })
	return path, fl
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// nextTypes reads n records and returns their types.
func nextTypes(t *testing.T, fl *Follower, n int) []Type {
	t.Helper()
	var out []Type
	for range n {
		var rec Record
		if err := fl.Next(&rec); err != nil {
			t.Fatalf("after %v: %v", out, err)
		}
		out = append(out, rec.Type)
	}
	return out
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestFollowTruncated(t *testing.T) {
	t.Parallel()
	path, fl := startFollow(t, testCtx(t), hdr("s1")+edgeFrame, nil)
	nextTypes(t, fl, 1)
	if err := os.Truncate(path, 10); err != nil {
		t.Fatal(err)
	}
	var rec Record
	if err := fl.Next(&rec); !errors.Is(err, ErrTruncated) {
		t.Fatalf("Next after truncation = %v, want ErrTruncated", err)
	}
	if err := fl.Next(&rec); !errors.Is(err, ErrTruncated) {
		t.Fatalf("second Next = %v, want the sticky ErrTruncated", err)
	}
}

func TestFollowReplaced(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"renamed over", "removed"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path, fl := startFollow(t, testCtx(t), hdr("s1")+edgeFrame, nil)
			nextTypes(t, fl, 1)
			var err error
			if name == "removed" {
				err = os.Remove(path)
			} else {
				other := path + ".new"
				// Longer than the original, so only the identity check can tell.
				if err := os.WriteFile(other, []byte(hdr("s2")+edgeFrame+edgeFrame+edgeFrame), 0o600); err != nil {
					t.Fatal(err)
				}
				err = os.Rename(other, path)
			}
			if err != nil && runtime.GOOS == "windows" {
				t.Skipf("windows does not replace an open file: %v", err)
			} else if err != nil {
				t.Fatal(err)
			}
			var rec Record
			if err := fl.Next(&rec); !errors.Is(err, ErrReplaced) {
				t.Fatalf("Next after replacement = %v, want ErrReplaced", err)
			}
		})
	}
}

func TestFollowCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	_, fl := startFollow(t, ctx, hdr("s1")+edgeFrame, nil)
	nextTypes(t, fl, 1)
	cancel()
	var rec Record
	if err := fl.Next(&rec); err != context.Canceled { //nolint:errorlint // ctx.Err() itself, unwrapped
		t.Fatalf("Next after cancel = %v, want context.Canceled", err)
	}

	// A deadline that passes while the Follower waits for the header.
	path := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"sess`), 0o600); err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	if _, err := Follow(dctx, path, &FollowOptions{Poll: time.Millisecond}); err != context.DeadlineExceeded { //nolint:errorlint // as above
		t.Fatalf("Follow on a partial header past its deadline = %v, want context.DeadlineExceeded", err)
	}
}

func TestFollowEndsAtEnd(t *testing.T) {
	t.Parallel()
	path, fl := startFollow(t, testCtx(t), hdr("s1")+edgeFrame+edgeEnd, nil)
	if diff := cmp.Diff([]Type{TypeFrame, TypeEnd}, nextTypes(t, fl, 2)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Nothing follows the end record: Next must not wait for more.
	var rec Record
	if err := fl.Next(&rec); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after the end record = %v, want io.EOF", err)
	}
	// NextSession waits for a session appended later.
	errc := make(chan error, 1)
	go func() { errc <- fl.NextSession() }()
	appendFile(t, path, hdr("s2")+edgeFrame)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if got := fl.Header().SessionID; got != "s2" {
		t.Errorf("session after NextSession = %q, want s2", got)
	}
	nextTypes(t, fl, 1)
}

func TestFollowEndsAtNextSession(t *testing.T) {
	t.Parallel()
	// The first writer died mid-line; a second appended its session.
	_, fl := startFollow(t, testCtx(t), hdr("s1")+edgeFrame+`{"type":"frame","se`+"\n"+hdr("s2")+edgeFrame, nil)
	nextTypes(t, fl, 1)
	var rec Record
	if err := fl.Next(&rec); !errors.Is(err, io.EOF) {
		t.Fatalf("Next at the next session = %v, want io.EOF", err)
	}
	if d := fl.Damage(); !d.Torn || d.Corrupt != 0 {
		t.Errorf("damage = %+v, want the torn tail and nothing corrupt", d)
	}
	if err := fl.NextSession(); err != nil {
		t.Fatal(err)
	}
	if got := fl.Header().SessionID; got != "s2" {
		t.Errorf("session = %q, want s2", got)
	}
	nextTypes(t, fl, 1)
}

func TestFollowTornTailCompleted(t *testing.T) {
	t.Parallel()
	// Split inside "é" (0xc3 0xa9).
	line := `{"type":"stderr","seq":2,"time":"2026-07-28T09:00:00Z","size":3,"text":"é"}` + "\n"
	cut := len(line) - 5
	head := hdr("s1") + edgeFrame + line[:cut]
	reached := make(chan struct{})
	var once sync.Once
	opts := &FollowOptions{waiting: func(pos int64) {
		if pos == int64(len(head)) {
			once.Do(func() { close(reached) })
		}
	}}
	path, fl := startFollow(t, testCtx(t), head, opts)
	nextTypes(t, fl, 1)
	type result struct {
		rec Record
		err error
	}
	resc := make(chan result, 1)
	go func() {
		var r result
		r.err = fl.Next(&r.rec)
		resc <- r
	}()
	<-reached // the Follower has read the partial line and waits at its end
	appendFile(t, path, line[cut:]+edgeEnd)
	r := <-resc
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.rec.Type != TypeStderr || r.rec.Text != "é" {
		t.Errorf("record = %+v, want the stderr line whole", r.rec)
	}
	if d := fl.Damage(); d.Torn || d.Corrupt != 0 {
		t.Errorf("damage = %+v, want none", d)
	}
	nextTypes(t, fl, 1)
}

func TestFollowFromSession(t *testing.T) {
	t.Parallel()
	content := hdr("s1") + edgeFrame + edgeEnd + hdr("s2") + "not a record\n" + edgeFrame
	path := filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := Index(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 2 {
		t.Fatalf("Index found %d sessions, want 2", len(sessions))
	}
	fl, err := Follow(testCtx(t), path, &FollowOptions{Poll: time.Millisecond, Session: &sessions[1]})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	if got := fl.Header().SessionID; got != "s2" {
		t.Errorf("session = %q, want s2", got)
	}
	nextTypes(t, fl, 1)
	errc := make(chan error, 1)
	go func() {
		var rec Record
		errc <- fl.Next(&rec)
	}()
	appendFile(t, path, edgeEnd)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	// Line numbers count from the start of the file.
	if diff := cmp.Diff([]int{5}, fl.Damage().CorruptLines); diff != "" {
		t.Errorf("corrupt lines (-want +got):\n%s", diff)
	}
}
