package source_test

import (
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestLines: notifications, stderr lines and notes become Lines in file
// order, with the seq of the frame before them, their file line, the call
// a notification concerns, and text cut to ui.MaxLineText.
func TestLines(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	w := newWriter(t, path, "lines")
	w.frame(capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	w.seq++
	long := strings.Repeat("é", ui.MaxLineText) // 2 bytes a rune: cut mid-string
	if err := w.w.Append(&capture.Line{Type: capture.TypeStderr, Seq: w.seq, Time: w.now, Bytes: []byte(long)}); err != nil {
		t.Fatal(err)
	}
	w.frame(capture.C2S, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	w.frame(capture.S2C, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`)
	w.seq++
	w.record(&capture.Record{Type: capture.TypeNote, Seq: w.seq, Time: w.now, Note: capture.NoteClientClosed})
	w.end()
	w.close()
	s, err := source.Open(context.Background(), path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := drain(t, s)
	cutLong := long[:ui.MaxLineText]
	tm := t0.Add(time.Millisecond)
	want := []ui.Line{
		{Kind: ui.LineStderr, Seq: 1, Time: tm, Text: cutLong, Call: -1, Line: 3},
		{Kind: ui.LineNotification, Seq: 3, Time: tm.Add(time.Millisecond), Dir: capture.C2S, Method: "notifications/cancelled", Call: 0, Line: 4},
		{Kind: ui.LineNotification, Seq: 4, Time: tm.Add(2 * time.Millisecond), Dir: capture.S2C, Method: "notifications/message", Call: -1, Line: 5},
		{Kind: ui.LineNote, Seq: 4, Time: tm.Add(2 * time.Millisecond), Note: capture.NoteClientClosed, Call: -1, Line: 6},
	}
	if diff := cmp.Diff(want, d.Lines); diff != "" {
		t.Errorf("Lines (-want +got):\n%.2000s", diff)
	}
	if !utf8.ValidString(d.Lines[0].Text) {
		t.Error("the cut stderr line is not valid UTF-8")
	}
}

// TestReadPipe reads a session from a pipe (no file): the second of two
// sessions by id, with a torn last line, frames kept for Data.Frame.
func TestReadPipe(t *testing.T) {
	t.Parallel()
	one := tuitest.Capture(t, "one", tuitest.ReadTranscript(t, tuitest.Transcript("elicit-seed")), true)
	two := tuitest.Capture(t, "two", tuitest.ReadTranscript(t, tuitest.Transcript("cancel-late")), false)
	torn := `{"type":"frame","seq":99,"dir":"c2s","msg":{"jsonrpc"`
	pr, pw := io.Pipe()
	go func() {
		for _, b := range [][]byte{one, two, []byte(torn)} {
			if _, err := pw.Write(b); err != nil {
				return
			}
		}
		pw.Close()
	}()
	s, err := source.Read(context.Background(), pr, "tuitest-two", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := drain(t, s)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	want := tuitest.Fixture(t, "cancel-late")
	if d.Live || d.Path != "" || d.Snap.Session.Label != "two" || calls(d) != calls(want) || !d.Snap.Session.Damage.Torn {
		t.Errorf("Data: live %v, path %q, label %q, %d calls (want %d), damage %+v", d.Live, d.Path, d.Snap.Session.Label, calls(d), calls(want), d.Snap.Session.Damage)
	}
	c := d.Snap.Calls.At(0)
	if rec, err := d.Frame(c.RequestSeq); err != nil || rec.Seq != c.RequestSeq {
		t.Errorf("Frame(%d) = %d, %v", c.RequestSeq, rec.Seq, err)
	}
	if _, err := source.Read(context.Background(), strings.NewReader(string(one)), "nope", nil); err == nil {
		t.Error("Read of a missing session id succeeded")
	}
}

// TestCloseStops: Close of a session still following a live capture
// returns, closes Updates and leaves no goroutine behind.
func TestCloseStops(t *testing.T) {
	before := runtime.NumGoroutine()
	path := tempCapture(t)
	w := newWriter(t, path, "close")
	defer w.close()
	w.call(1, `{}`)
	w.flush()
	s, err := source.Open(context.Background(), path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	d := until(t, s, "the call", func(d ui.Data) bool { return calls(d) == 1 })
	if !d.Live {
		t.Error("Data of a capture whose writer holds it is not live")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range s.Updates() {
	}
	noLeak(t, before)
	if _, err := d.Frame(d.Snap.Calls.At(0).RequestSeq); err == nil {
		t.Error("Frame after Close read the closed file")
	}
}

// TestHubCloseStops: Close of a hub following a live capture, while
// another file waits for a read slot, leaves no goroutine behind.
func TestHubCloseStops(t *testing.T) {
	before := runtime.NumGoroutine()
	dir := t.TempDir()
	for _, id := range []string{"a", "b", "c"} {
		w := newWriter(t, filepath.Join(dir, id+capture.Ext), id)
		defer w.close()
	}
	h := source.Watch(context.Background(), dir, nil)
	waitList(t, h, "the live sessions", func(l []ui.SessionInfo) bool { return len(l) == 3 && l[0].Live && l[2].Live })
	h.Close()
	for range h.Updates() {
	}
	noLeak(t, before)
}

// noLeak waits until no more goroutines run than before.
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines after Close, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
	}
}
