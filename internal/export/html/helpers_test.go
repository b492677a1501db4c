package htmlexport

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/session"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/transcript"
)

// transcriptCapture returns the capture the tap would write of the
// transcript at path: a session record (with label), each frame (stderr lines as
// stderr records) and an end record.
func transcriptCapture(tb testing.TB, path, label string) []byte {
	tb.Helper()
	tr, err := transcript.Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(w.Write(&capture.Record{Type: capture.TypeSession, Time: start, Format: capture.FormatVersion,
		SessionID: "s-" + label, Transport: "stdio", Label: label, Command: []string{"srv"}}))
	at := start
	for i, f := range tr.Frames {
		at = at.Add(time.Duration(f.AfterMS * float64(time.Millisecond)))
		typ, dir := capture.TypeFrame, capture.Dir(f.Dir)
		if f.Dir == transcript.Stderr {
			typ, dir = capture.TypeStderr, capture.S2C
		}
		must(w.WriteLine(typ, uint64(i+1), at, dir, f.Raw, false, "", nil))
	}
	must(w.Write(&capture.Record{Type: capture.TypeEnd, Time: at.Add(time.Millisecond)}))
	must(w.Flush())
	return buf.Bytes()
}

// render streams capture data through a store into a Writer and returns
// the page and the final snapshot.
func render(tb testing.TB, data []byte) (string, *store.Snapshot) {
	tb.Helper()
	var out bytes.Buffer
	snap, err := export(data, &out, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return out.String(), snap
}

// export is the export command's path without the CLI: read through the
// session loader, write the page.
func export(data []byte, out io.Writer, spoolDir string) (*store.Snapshot, error) {
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	hw := New(out, r.Header(), &Options{SpoolDir: spoolDir, Version: "test"})
	defer hw.Close()
	s, err := session.Load(r, &session.Options{OnFrame: hw.Frame, Rules: rules.Default()})
	if err != nil {
		return nil, err
	}
	hw.SetAuth(&s.Auth)
	return s.Snapshot, hw.Finish(s.Snapshot)
}

// jsonUnmarshal decodes s into v.
func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
