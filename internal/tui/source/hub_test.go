package source_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// waitList receives lists until ok holds for one, and returns it.
func waitList(t *testing.T, h *source.Hub, what string, ok func([]ui.SessionInfo) bool) []ui.SessionInfo {
	t.Helper()
	timeout := time.After(waitFor)
	var last []ui.SessionInfo
	for {
		select {
		case l, open := <-h.Updates():
			if !open {
				t.Fatalf("Updates closed before %s", what)
			}
			checkOrder(t, l)
			if ok(l) {
				return l
			}
			last = l
		case <-timeout:
			t.Fatalf("no list with %s within %v; last: %+v", what, waitFor, last)
		}
	}
}

// checkOrder checks a list is newest first.
func checkOrder(t *testing.T, l []ui.SessionInfo) {
	t.Helper()
	for i := 1; i < len(l); i++ {
		if l[i].Start.After(l[i-1].Start) {
			t.Errorf("row %d (%s) starts after row %d (%s)", i, l[i].Start, i-1, l[i-1].Start)
		}
	}
}

func row(l []ui.SessionInfo, id string) (ui.SessionInfo, bool) {
	for _, r := range l {
		if r.ID == id {
			return r, true
		}
	}
	return ui.SessionInfo{}, false
}

// TestWatch: a new capture appears, a growing one updates its counts and
// turns not live at its end, a file that is not a capture is a row with
// Err and does not stop the watch, and each session of a file is a row.
func TestWatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "junk"+capture.Ext), []byte("not a capture\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := source.Watch(context.Background(), dir, nil)
	defer h.Close()
	waitList(t, h, "the junk row", func(l []ui.SessionInfo) bool { return len(l) == 1 && l[0].Err != "" })

	start := time.Now()
	w := newWriter(t, filepath.Join(dir, "b"+capture.Ext), "grow")
	defer w.close()
	waitList(t, h, "the new session", func(l []ui.SessionInfo) bool { _, ok := row(l, "grow"); return ok })
	t.Logf("a new session appeared after %v", time.Since(start))

	for i := 1; i <= 30; i++ {
		w.call(i, `{}`)
	}
	w.frame(capture.C2S, `{"jsonrpc":"2.0","id":31,"method":"tools/call","params":{"name":"x"}}`)
	w.frame(capture.S2C, `{"jsonrpc":"2.0","id":31,"error":{"code":-32602,"message":"no"}}`)
	w.flush()
	l := waitList(t, h, "31 calls", func(l []ui.SessionInfo) bool { r, _ := row(l, "grow"); return r.Calls == 31 })
	r, _ := row(l, "grow")
	if !r.Live || r.Errors != 1 || r.Label != "test-grow" || r.Transport != "stdio" || r.Path != w.f.Path() {
		t.Errorf("growing row: %+v", r)
	}
	if sum(r.Activity) != 62 || len(r.Activity) != ui.ActivityBuckets {
		t.Errorf("Activity = %v, want %d buckets summing to 62 frames", r.Activity, ui.ActivityBuckets)
	}
	if !r.LastActivity.Equal(w.now) || !r.Start.Equal(t0) {
		t.Errorf("Start %v, LastActivity %v; want %v, %v", r.Start, r.LastActivity, t0, w.now)
	}
	w.end()
	w.close()
	waitList(t, h, "the ended session", func(l []ui.SessionInfo) bool { r, _ := row(l, "grow"); return !r.Live && r.Calls == 31 })

	// Two sessions in one file, the second live.
	path := filepath.Join(dir, "c"+capture.Ext)
	w1 := newWriter(t, path, "first")
	w1.call(1, `{}`)
	w1.end()
	w1.close()
	w2 := newWriter(t, path, "second")
	defer w2.close()
	w2.call(1, `{}`)
	w2.call(2, `{}`)
	w2.flush()
	l = waitList(t, h, "both sessions of one file", func(l []ui.SessionInfo) bool {
		a, _ := row(l, "first")
		b, _ := row(l, "second")
		return a.Calls == 1 && b.Calls == 2
	})
	if a, _ := row(l, "first"); a.Live {
		t.Errorf("the ended first session is live: %+v", a)
	}
	if len(l) != 4 {
		t.Errorf("%d rows, want 4 (junk, grow, first, second)", len(l))
	}
}

// TestWatchClose: Close stops every goroutine and closes Updates.
func TestWatchClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWriter(t, filepath.Join(dir, "a"+capture.Ext), "live")
	defer w.close()
	h := source.Watch(context.Background(), dir, nil)
	waitList(t, h, "the session", func(l []ui.SessionInfo) bool { r, _ := row(l, "live"); return r.Live })
	h.Close()
	for range h.Updates() {
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestWatchManyFilesMemory: finished captures cost the hub their rows,
// not their readers (a Follower holds a 1 MB buffer, a store the calls).
func TestWatchManyFilesMemory(t *testing.T) {
	const files = 64
	dir := t.TempDir()
	for i := range files {
		w := newWriter(t, filepath.Join(dir, fmt.Sprintf("f%02d%s", i, capture.Ext)), fmt.Sprint("s", i))
		for n := range 50 {
			w.call(n+1, `{}`)
		}
		w.end()
		w.close()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h := source.Watch(context.Background(), dir, nil)
	defer h.Close()
	waitList(t, h, "every file", func(l []ui.SessionInfo) bool {
		if len(l) != files {
			return false
		}
		for _, r := range l {
			if r.Live || r.Calls != 50 {
				return false
			}
		}
		return true
	})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > files<<18 {
		t.Errorf("the hub holds %d KB for %d finished files of 50 calls", grew>>10, files)
	}
}
