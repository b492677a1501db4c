package source_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// t0 is the start of every capture these tests write.
var t0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// waitFor bounds every wait on a source: a source that never delivers
// fails the test instead of hanging it.
const waitFor = 10 * time.Second

// writer writes a capture through the real File (holding its lock, as a
// running mcptrail does) and Writer, one call at a time.
type writer struct {
	t    testing.TB
	f    *capture.File
	w    *capture.Writer
	seq  uint64
	now  time.Time
	shut bool
}

// newWriter creates a capture at path (appending a session when the file
// exists) and writes the session record of session id.
func newWriter(t testing.TB, path, id string) *writer {
	t.Helper()
	f, err := capture.CreateFile(path, capture.Append)
	if err != nil {
		t.Fatal(err)
	}
	w := &writer{t: t, f: f, w: capture.NewWriter(f), now: t0}
	w.record(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: id, Transport: "stdio", Label: "test-" + id, Command: []string{"server"}, PID: os.Getpid()})
	w.flush()
	return w
}

func (w *writer) record(r *capture.Record) {
	w.t.Helper()
	if err := w.w.Write(r); err != nil {
		w.t.Fatal(err)
	}
}

// frame writes one frame, a millisecond after the last record.
func (w *writer) frame(dir capture.Dir, msg string) uint64 {
	w.t.Helper()
	w.seq++
	w.now = w.now.Add(time.Millisecond)
	if err := w.w.Append(&capture.Line{Type: capture.TypeFrame, Seq: w.seq, Time: w.now, Dir: dir, Bytes: []byte(msg)}); err != nil {
		w.t.Fatal(err)
	}
	return w.seq
}

// call writes a tools/call request with id and its result.
func (w *writer) call(id int, args string) {
	w.t.Helper()
	w.frame(capture.C2S, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":%s}}`, id, args))
	w.frame(capture.S2C, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"ok %d"}]}}`, id, id))
}

func (w *writer) flush() {
	w.t.Helper()
	if err := w.w.Flush(); err != nil {
		w.t.Fatal(err)
	}
}

// raw writes bytes as they are (a torn line), flushing first.
func (w *writer) raw(b string) {
	w.t.Helper()
	w.flush()
	if _, err := w.f.WriteString(b); err != nil {
		w.t.Fatal(err)
	}
}

// end writes the end record and flushes.
func (w *writer) end() {
	w.t.Helper()
	w.seq++
	w.record(&capture.Record{Type: capture.TypeEnd, Seq: w.seq, Time: w.now})
	w.flush()
}

// close releases the file and its lock: the writer is gone.
func (w *writer) close() {
	w.t.Helper()
	if w.shut {
		return
	}
	w.shut = true
	w.flush()
	if err := w.f.Close(); err != nil {
		w.t.Fatal(err)
	}
}

func tempCapture(t testing.TB) string {
	return filepath.Join(t.TempDir(), "s"+capture.Ext)
}

// next receives the next Data; ok is false once Updates is closed.
func next(t testing.TB, s *source.Session) (ui.Data, bool) {
	t.Helper()
	select {
	case d, ok := <-s.Updates():
		return d, ok
	case <-time.After(waitFor):
		t.Fatalf("no Data within %v", waitFor)
	}
	return ui.Data{}, false
}

// until receives Data until ok(d) holds, and returns that Data.
func until(t testing.TB, s *source.Session, what string, ok func(ui.Data) bool) ui.Data {
	t.Helper()
	var last ui.Data
	for {
		d, open := next(t, s)
		if !open {
			t.Fatalf("Updates closed before %s (last Data: %d calls, live %v; err %v)", what, calls(last), last.Live, s.Err())
		}
		checkData(t, last, d)
		if ok(d) {
			return d
		}
		last = d
	}
}

// drain receives every Data until Updates closes and returns the last.
func drain(t testing.TB, s *source.Session) ui.Data {
	t.Helper()
	var last ui.Data
	for {
		d, open := next(t, s)
		if !open {
			if last.Snap == nil {
				t.Fatal("Updates closed without a Data")
			}
			return last
		}
		checkData(t, last, d)
		last = d
	}
}

// checkData checks what every newer Data must keep: Gen increases, Lines
// only grows (the older Data's Lines unchanged).
func checkData(t testing.TB, old, d ui.Data) {
	t.Helper()
	if d.Snap == nil {
		t.Fatal("a Data without a snapshot")
	}
	if old.Snap == nil {
		return
	}
	if d.Gen <= old.Gen {
		t.Errorf("Gen went from %d to %d", old.Gen, d.Gen)
	}
	if len(d.Lines) < len(old.Lines) {
		t.Errorf("Lines shrank from %d to %d", len(old.Lines), len(d.Lines))
	}
	for i := range old.Lines {
		if old.Lines[i] != d.Lines[i] {
			t.Fatalf("line %d changed: %+v then %+v", i, old.Lines[i], d.Lines[i])
		}
	}
}

func calls(d ui.Data) int {
	if d.Snap == nil {
		return 0
	}
	return d.Snap.Calls.Len()
}

func mustRead(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
