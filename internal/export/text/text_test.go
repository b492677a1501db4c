package textexport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

func TestFormatMS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ms   float64
		want string
	}{
		{0, "0ms"}, {0.042, "0.04ms"}, {920, "920.0ms"}, {2840, "2.84s"}, {-5, "-5.0ms"},
	}
	for _, tt := range tests {
		if got := formatMS(tt.ms); got != tt.want {
			t.Errorf("formatMS(%v) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestWriterAndSummary(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	snap := &store.Snapshot{
		Session: store.Session{ID: "s1", Label: "demo", Transport: "stdio", Format: 1, Start: t0, End: t0.Add(time.Second), Ended: true},
		Calls: store.CallsOf([]store.Call{{Index: 0, Dir: capture.C2S, ID: wire.IntID(1), Method: "tools/call", Target: "t", RequestSeq: 1,
			Start: t0, Status: store.StatusPending, Operation: -1, Parent: -1}}),
	}
	var full bytes.Buffer
	w := New(&full, &capture.Record{SessionID: "s1", Label: "demo", Time: t0}, nil)
	w.Frame(&store.Frame{Seq: 1, Time: t0.Add(1500 * time.Microsecond), Dir: capture.S2C, Kind: store.KindInvalid,
		Problem: wire.ProblemJSON, Size: 5, Call: -1, Record: &capture.Record{Text: "hello"}})
	if err := w.Finish(snap); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(full.String(), "\n")
	wantHead := []string{"mcptrail session s1 (demo)", "", "session"}
	if diff := cmp.Diff(wantHead, lines[:len(wantHead)]); diff != "" {
		t.Errorf("head (-want +got):\n%s", diff)
	}
	// The frames come last.
	wantTail := []string{
		"",
		"frames",
		"  SEQ   TIME      DIR KIND         ID      METHOD                 SIZE  CALL / !",
		`  #1    +1.5ms    s2c invalid      -                                 5  ! not valid JSON: "hello"`,
		"",
	}
	if diff := cmp.Diff(wantTail, lines[len(lines)-len(wantTail):]); diff != "" {
		t.Errorf("tail (-want +got):\n%s", diff)
	}
	var short bytes.Buffer
	if err := Summary(&short, snap); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"\nframes", "SEQ   TIME"} {
		if strings.Contains(short.String(), s) {
			t.Errorf("summary contains %q:\n%s", s, short.String())
		}
	}
	for _, s := range []string{"operations (0)", "requests (1): 1 call", "0  c2s  1   tools/call  t       -    pending  -         #1→", "findings (0)"} {
		if !strings.Contains(short.String(), s) {
			t.Errorf("summary lacks %q:\n%s", s, short.String())
		}
		if !strings.Contains(full.String(), s) {
			t.Errorf("full export lacks %q:\n%s", s, full.String())
		}
	}
}
