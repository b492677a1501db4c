package source_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestOpenFollowsWriter follows a capture a writer appends to in steps:
// each step's calls reach Updates while the session is live, and the end
// record makes the last Data not live and closes Updates.
func TestOpenFollowsWriter(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	w := newWriter(t, path, "live-1")
	defer w.close()
	s, err := source.Open(context.Background(), path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const steps, perStep = 20, 7
	id := 0
	for step := 1; step <= steps; step++ {
		for range perStep {
			id++
			w.call(id, `{"n":1}`)
		}
		w.flush()
		d := until(t, s, fmt.Sprintf("step %d", step), func(d ui.Data) bool { return calls(d) >= step*perStep })
		if !d.Live {
			t.Fatalf("step %d: Data not live while the writer is writing", step)
		}
		if got := calls(d); got != step*perStep {
			t.Fatalf("step %d: %d calls, want %d", step, got, step*perStep)
		}
	}
	w.end()
	last := drain(t, s)
	if last.Live {
		t.Error("the last Data is live after the end record")
	}
	if !last.Snap.Session.Ended {
		t.Error("the last Data's session has not ended")
	}
	if err := s.Err(); err != nil {
		t.Errorf("Err = %v", err)
	}
	for i := range id {
		c := last.Snap.Calls.At(i)
		if c.Status != store.StatusOK || c.ID.String() != fmt.Sprint(i+1) {
			t.Fatalf("call %d: id %s status %s", i, c.ID, c.Status)
		}
		rec, err := last.Frame(c.ResponseSeq)
		if err != nil || rec.Seq != c.ResponseSeq {
			t.Fatalf("Frame(%d) = seq %d, %v", c.ResponseSeq, rec.Seq, err)
		}
	}
}

// TestOpenWriterDies: a writer that stops without an end record and
// releases its lock (killed) ends the session, not live, and closes
// Updates; its torn last line is reported as damage.
func TestOpenWriterDies(t *testing.T) {
	t.Parallel()
	for _, before := range []bool{true, false} {
		t.Run(fmt.Sprintf("dies before open %v", before), func(t *testing.T) {
			t.Parallel()
			path := tempCapture(t)
			w := newWriter(t, path, "dies")
			w.call(1, `{}`)
			w.call(2, `{}`)
			w.raw(`{"type":"frame","seq":5,"time":"2026-08-01T12:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0",`)
			if before {
				w.close()
			}
			s, err := source.Open(context.Background(), path, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !before {
				until(t, s, "the calls", func(d ui.Data) bool { return calls(d) == 2 })
				w.close()
			}
			last := drain(t, s)
			if last.Live || calls(last) != 2 {
				t.Errorf("last Data: live %v, %d calls; want not live, 2 calls", last.Live, calls(last))
			}
			if dmg := last.Snap.Session.Damage; !dmg.Torn || dmg.TornBytes == 0 {
				t.Errorf("Damage = %+v, want the torn line", dmg)
			}
			if err := s.Err(); err != nil {
				t.Errorf("Err = %v", err)
			}
		})
	}
}

// TestOpenPicksSession: a file holding several sessions opens the one
// named by id or an unambiguous prefix, the last by default.
func TestOpenPicksSession(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	for i, id := range []string{"aa-one", "ab-two", "ab-three"} {
		w := newWriter(t, path, id)
		for n := range i + 1 {
			w.call(n+1, `{}`)
		}
		w.end()
		w.close()
	}
	tests := []struct {
		id, want string
		calls    int
		err      error
	}{
		{"", "ab-three", 3, nil},
		{"aa-one", "aa-one", 1, nil},
		{"ab-two", "ab-two", 2, nil},
		{"aa", "aa-one", 1, nil},
		{"ab", "", 0, source.ErrAmbiguous},
		{"zz", "", 0, source.ErrNoSession},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			s, err := source.Open(context.Background(), path, tt.id, nil)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Open(%q) error = %v, want %v", tt.id, err, tt.err)
			}
			if err != nil {
				return
			}
			defer s.Close()
			d := drain(t, s)
			if d.Snap.Session.ID != tt.want || calls(d) != tt.calls || d.Live {
				t.Errorf("Open(%q): session %s, %d calls, live %v; want %s, %d, not live", tt.id, d.Snap.Session.ID, calls(d), d.Live, tt.want, tt.calls)
			}
		})
	}
}

// TestOpenNotCapture: a file that is not a capture is an error.
func TestOpenNotCapture(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	if err := os.WriteFile(path, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := source.Open(context.Background(), path, "", nil); !errors.Is(err, capture.ErrNotCapture) {
		t.Errorf("Open(not a capture) = %v, want ErrNotCapture", err)
	}
}

// TestOpenTruncated: a capture cut short while followed ends the session
// with what was read, not live, and Err says why.
func TestOpenTruncated(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	w := newWriter(t, path, "cut")
	defer w.close()
	w.call(1, `{}`)
	w.flush()
	s, err := source.Open(context.Background(), path, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	until(t, s, "the call", func(d ui.Data) bool { return calls(d) == 1 })
	if err := w.f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	d := drain(t, s)
	if d.Live || calls(d) != 1 || !errors.Is(s.Err(), capture.ErrTruncated) {
		t.Errorf("last Data: live %v, %d calls; Err %v; want not live, 1 call, ErrTruncated", d.Live, calls(d), s.Err())
	}
}
