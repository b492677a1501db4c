package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// TestFollowTruncated follows a capture whose writer is still there, then
// truncates the file under the reader: once the status message is gone,
// the title line still says the capture was truncated, and the stream
// keeps the calls read before (golden at 80×24).
func TestFollowTruncated(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "live"+capture.Ext)
	f, err := capture.CreateFile(path, capture.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := capture.NewWriter(f)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: "cut", Transport: "stdio", Label: "cut", Command: []string{"server"}, PID: os.Getpid()}))
	const calls = 3
	for i := 1; i <= calls; i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		must(w.Append(&capture.Line{Type: capture.TypeFrame, Seq: uint64(2*i - 1), Time: at, Dir: capture.C2S,
			Bytes: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`, i)}))
		must(w.Append(&capture.Line{Type: capture.TypeFrame, Seq: uint64(2 * i), Time: at.Add(5 * time.Millisecond), Dir: capture.S2C,
			Bytes: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, i)}))
	}
	must(w.Flush())

	src, err := source.Open(context.Background(), path, "", &source.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := New(context.Background(), Options{Stdin: strings.NewReader(""), Now: func() time.Time { return t0 }})
	a, _ = update(t, a, tea.WindowSizeMsg{Width: 80, Height: 24}, openedMsg{gen: 1, src: src, name: path})
	truncated := false
	for {
		var d dataMsg
		select {
		case d.d, d.ok = <-src.Updates():
		case <-time.After(10 * time.Second):
			t.Fatal("the source delivered nothing for 10 s")
		}
		d.gen = 1
		a, _ = update(t, a, d)
		if !d.ok {
			break
		}
		if !truncated && d.d.Snap.Calls.Len() == calls {
			must(f.Truncate(0)) // the writer is still there, holding its lock
			truncated = true
		}
	}
	if !truncated {
		t.Fatal("the source ended before it showed the calls")
	}
	a, _ = update(t, a, tickMsg(t0.Add(time.Hour))) // the status message is long gone
	got := a.Render()
	if !strings.Contains(got, "file truncated: showing what was read") {
		t.Errorf("the title line does not say the capture was truncated:\n%s", got)
	}
	if n := a.sess.data.Snap.Calls.Len(); n != calls {
		t.Errorf("%d calls on screen after the truncation, want the %d read before", n, calls)
	}
	tuitest.CheckSize(t, got, 80, 24)
	tuitest.Golden(t, "app-80x24-truncated", got)
}
