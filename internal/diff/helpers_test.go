package diff

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// t0 is the start of every session the tests build.
var t0 = time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)

// captureOf writes a transcript as the capture the tap would have written
// of it, normalised as internal/corpus normalises its captures: the
// session id is name, each frame is stamped at its transcript offset, and
// an end record closes the session.
func captureOf(t testing.TB, tr *transcript.Transcript, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	hdr := capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion,
		SessionID: name, Transport: "stdio", Label: name, ToolVersion: "corpus",
		Command: []string{"mcptrail", "__replay-server", name + ".transcript.jsonl", "--scale", "0"}}
	if err := w.Write(&hdr); err != nil {
		t.Fatal(err)
	}
	offsets := tr.OffsetsMS()
	last := t0
	for i, f := range tr.Frames {
		last = t0.Add(time.Duration(offsets[i] * float64(time.Millisecond)))
		typ, dir := capture.TypeFrame, capture.Dir(f.Dir)
		if f.Dir == transcript.Stderr {
			typ, dir = capture.TypeStderr, ""
		}
		if err := w.WriteLine(typ, uint64(i+1), last, dir, f.Raw, f.NoEOL, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	end := capture.Record{Type: capture.TypeEnd, Seq: uint64(len(tr.Frames) + 1), Time: last}
	if err := w.Write(&end); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// snapshotOf loads a capture with every default rule, keeping its frames
// readable, as `mcptrail diff` does.
func snapshotOf(t testing.TB, data []byte) *store.Snapshot {
	t.Helper()
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(r, &store.Options{Rules: rules.Default(), Checks: rules.Checks(), Source: bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// loadTranscript reads the transcript at path into a snapshot named after
// the file.
func loadTranscript(t testing.TB, path string) *store.Snapshot {
	t.Helper()
	tr, err := transcript.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return snapshotOf(t, captureOf(t, tr, sessionName(path)))
}
