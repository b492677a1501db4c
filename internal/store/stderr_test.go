package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestOnStderr checks that every stderr record reaches Options.OnStderr in
// capture order, with its index, time and bytes (UTF-8 or not, with or
// without a newline), between the frames, and that Counts.Stderr agrees.
func TestOnStderr(t *testing.T) {
	t.Parallel()
	type line struct {
		Index int
		Time  time.Time
		Bytes string
		NoEOL bool
	}
	var got []line
	s := New(&Options{OnStderr: func(l *StderrLine) {
		got = append(got, line{l.Index, l.Time, string(l.Record.Bytes()), l.Record.NoEOL})
	}})
	s.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, SessionID: "s"})
	recs := []capture.Record{
		{Type: capture.TypeStderr, Time: t0.Add(time.Millisecond), Text: "starting"},
		{Type: capture.TypeFrame, Seq: 1, Dir: capture.C2S, Time: t0.Add(2 * time.Millisecond), Msg: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
		{Type: capture.TypeStderr, Time: t0.Add(3 * time.Millisecond), B64: []byte("bad \xff byte")},
		{Type: capture.TypeStderr, Time: t0.Add(4 * time.Millisecond), Text: "", Size: 0},
		{Type: capture.TypeStderr, Time: t0.Add(5 * time.Millisecond), Text: "torn", NoEOL: true},
	}
	for i := range recs {
		s.Ingest(&recs[i])
	}
	want := []line{
		{0, t0.Add(time.Millisecond), "starting", false},
		{1, t0.Add(3 * time.Millisecond), "bad \xff byte", false},
		{2, t0.Add(4 * time.Millisecond), "", false},
		{3, t0.Add(5 * time.Millisecond), "torn", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stderr lines (-want +got):\n%s", diff)
	}
	if n := s.Final().Counts.Stderr; n != 4 {
		t.Errorf("Counts.Stderr = %d, want 4", n)
	}
}
