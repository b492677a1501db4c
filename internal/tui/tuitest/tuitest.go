// Package tuitest builds what the TUI's tests show: a capture written by
// the real capture.Writer from a wire transcript (testdata/transcripts, the
// ../shared/fixtures format), and the ui.Data the real source reads from
// it. It is used only from tests.
package tuitest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/transcript"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// T0 is the start time of every capture Capture writes.
var T0 = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// Transcript returns the path of testdata/transcripts/NAME.transcript.jsonl
// in the repository.
func Transcript(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "transcripts", name+".transcript.jsonl")
}

// Step is one frame of a transcript: its direction, its delay after the
// previous frame, and its bytes.
type Step struct {
	Dir   capture.Dir
	After time.Duration
	Raw   []byte
}

// ReadTranscript reads a transcript file (transcript.Load) as steps.
func ReadTranscript(t testing.TB, path string) []Step {
	t.Helper()
	tr, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := make([]Step, len(tr.Frames))
	for i, f := range tr.Frames {
		steps[i] = Step{Dir: capture.Dir(f.Dir), After: time.Duration(f.AfterMS * float64(time.Millisecond)), Raw: f.Raw}
	}
	return steps
}

// Capture writes steps as a capture (a session record labelled label,
// transport stdio, then one frame a step) through the real Writer; ended
// adds an end record.
func Capture(t testing.TB, label string, steps []Step, ended bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	hdr := capture.Record{Type: capture.TypeSession, Time: T0, Format: capture.FormatVersion,
		SessionID: "tuitest-" + label, Transport: "stdio", Label: label, Command: []string{"server"}}
	if err := w.Write(&hdr); err != nil {
		t.Fatal(err)
	}
	now := T0
	for i, st := range steps {
		now = now.Add(st.After)
		if err := w.Append(&capture.Line{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: now, Dir: st.Dir, Bytes: st.Raw}); err != nil {
			t.Fatal(err)
		}
	}
	if ended {
		if err := w.Write(&capture.Record{Type: capture.TypeEnd, Seq: uint64(len(steps) + 1), Time: now}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Data reads a capture with the real source (source.Read, the full rule
// set) and returns the last Data it delivers.
func Data(t testing.TB, capt []byte) ui.Data {
	t.Helper()
	s, err := source.Read(context.Background(), bytes.NewReader(capt), "", &source.Options{Rules: rules.Default()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var last ui.Data
	for d := range s.Updates() {
		last = d
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if last.Snap == nil {
		t.Fatal("source delivered no Data")
	}
	return last
}

// Fixture is Data of the named transcript, ended.
func Fixture(t testing.TB, name string) ui.Data {
	t.Helper()
	return Data(t, Capture(t, name, ReadTranscript(t, Transcript(name)), true))
}

// CallsCapture writes to path a finished capture of n tools/call round
// trips (2n frames, a millisecond apart, twenty tool names) through the
// real Writer: the large session of the benchmarks and figures.
func CallsCapture(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	w := capture.NewWriter(bw)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: T0, Format: capture.FormatVersion,
		SessionID: "big", Transport: "stdio", Label: "big", Command: []string{"server"}}); err != nil {
		tb.Fatal(err)
	}
	var seq uint64
	at := T0
	var msg []byte
	for i := 1; i <= n; i++ {
		for _, dir := range []capture.Dir{capture.C2S, capture.S2C} {
			seq++
			at = at.Add(time.Millisecond)
			if dir == capture.C2S {
				msg = fmt.Appendf(msg[:0], `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tool-%d","arguments":{"i":%d}}}`, i, i%20, i)
			} else {
				msg = fmt.Appendf(msg[:0], `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"answer %d"}]}}`, i, i)
			}
			if err := w.Append(&capture.Line{Type: capture.TypeFrame, Seq: seq, Time: at, Dir: dir, Bytes: msg}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := w.Write(&capture.Record{Type: capture.TypeEnd, Seq: seq + 1, Time: at}); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
}
