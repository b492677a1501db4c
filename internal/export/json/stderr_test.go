package jsonexport

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

func sampleStderr() []store.StderrLine {
	return []store.StderrLine{
		{Index: 0, Time: t0, Record: &capture.Record{Type: capture.TypeStderr, Text: "listening \x1b[31m", Size: 15}},
		{Index: 1, Time: t0.Add(time.Millisecond), Record: &capture.Record{Type: capture.TypeStderr, B64: []byte("bad \xff"), Size: 5}},
		{Index: 2, Time: t0.Add(2 * time.Millisecond), Record: &capture.Record{Type: capture.TypeStderr, Text: "torn", NoEOL: true}},
	}
}

// renderStderr is render with stderr lines fed between the frames.
func renderStderr(t *testing.T, frames []store.Frame, lines []store.StderrLine, opts *Options) string {
	t.Helper()
	var buf bytes.Buffer
	w := New(&buf, opts)
	defer w.Close()
	for i := range max(len(frames), len(lines)) {
		if i < len(frames) {
			w.Frame(&frames[i])
		}
		if i < len(lines) {
			w.Stderr(&lines[i])
		}
	}
	if err := w.Finish(sampleSnapshot()); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func topKeys(t *testing.T, out string) []string {
	t.Helper()
	dec := jsontext.NewDecoder(strings.NewReader(out))
	if _, err := dec.ReadToken(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.String())
		if err := dec.SkipValue(); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestStderr checks that every stderr line is exported, in order, after
// the frames, with its bytes kept (base64 when they are not UTF-8), with
// and without frames around them and when the spool spills to a file.
func TestStderr(t *testing.T) {
	t.Parallel()
	want := []map[string]any{
		{"index": 0.0, "time": "2026-07-28T09:00:00Z", "size": 15.0, "text": "listening \x1b[31m"},
		{"index": 1.0, "time": "2026-07-28T09:00:00.001Z", "size": 5.0, "b64": "YmFkIP8="},
		{"index": 2.0, "time": "2026-07-28T09:00:00.002Z", "size": 4.0, "text": "torn", "noeol": true},
	}
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		frames []store.Frame
		opts   *Options
	}{
		"frames":    {sampleFrames(), nil},
		"no frames": {nil, nil},
		"spilled":   {sampleFrames(), &Options{SpoolDir: dir, SpoolMemory: 16}},
	} {
		t.Run(name, func(t *testing.T) {
			out := renderStderr(t, tc.frames, sampleStderr(), tc.opts)
			if !jsontext.Value(out).IsValid() {
				t.Fatalf("export is not valid JSON:\n%s", out)
			}
			wantKeys := []string{"session", "frames", "stderr", "calls", "operations", "summary", "findings"}
			if diff := cmp.Diff(wantKeys, topKeys(t, out)); diff != "" {
				t.Errorf("top-level keys (-want +got):\n%s", diff)
			}
			var doc struct {
				Frames []map[string]any `json:"frames"`
				Stderr []map[string]any `json:"stderr"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, doc.Stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if len(doc.Frames) != len(tc.frames) {
				t.Errorf("%d frames, want %d", len(doc.Frames), len(tc.frames))
			}
		})
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("spools left %d files behind", len(left))
	}
}

// TestNoStderrNoKey checks that a session without stderr has no stderr key.
func TestNoStderrNoKey(t *testing.T) {
	t.Parallel()
	out := renderStderr(t, sampleFrames(), nil, nil)
	if diff := cmp.Diff(out, render(t, sampleFrames(), sampleSnapshot(), nil)); diff != "" {
		t.Errorf("export without stderr changed (-renderStderr +render):\n%s", diff)
	}
	if strings.Contains(out, `"stderr":[`) {
		t.Errorf("export without stderr lines has a stderr key:\n%s", out)
	}
}
