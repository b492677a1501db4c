package store

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// framesCapture writes frames with seqs that skip some numbers (a stderr
// line takes one) and jump far once, and returns the capture and the
// records a Reader reads from it.
func framesCapture(t *testing.T) ([]byte, *capture.Record, []capture.Record) {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	if err := w.Write(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion, SessionID: "f"}); err != nil {
		t.Fatal(err)
	}
	seq := uint64(0)
	for i := range 300 {
		seq++
		if i%7 == 3 {
			seq++ // a seq no frame has
			if err := w.WriteLine(capture.TypeStderr, seq-1, t0, capture.S2C, []byte("log line"), false, "", nil); err != nil {
				t.Fatal(err)
			}
		}
		if i == 200 {
			seq += 1000
		}
		line := tool(frameID(i), "t", `{}`, "")
		dir := capture.C2S
		if i%2 == 1 {
			line, dir = done(frameID(i-1)), capture.S2C
		}
		if i == 250 {
			line = "not json \xff"
		}
		if err := w.WriteLine(capture.TypeFrame, seq, t0.Add(time.Duration(i)*time.Millisecond), dir, []byte(line), false, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r, err := capture.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var recs []capture.Record
	for {
		var rec capture.Record
		if err := r.Next(&rec); err != nil {
			break
		}
		recs = append(recs, rec)
	}
	return buf.Bytes(), r.Header(), recs
}

func frameID(i int) string { return `"` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `"` }

// TestSnapshotFrame checks that a snapshot hands out each frame by seq,
// equal to the record the capture Reader read: from the capture file by
// offset (Options.Source), and from the bytes kept for a session without
// a file (Options.KeepFrames). A snapshot taken midway has no later frame,
// and a store given neither has none.
func TestSnapshotFrame(t *testing.T) {
	t.Parallel()
	data, h, recs := framesCapture(t)
	tests := []struct {
		name string
		opts *Options
		// offsets says whether Frame returns the file offset the reader saw.
		offsets bool
	}{
		{"file", &Options{Source: bytes.NewReader(data)}, true},
		{"kept", &Options{KeepFrames: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New(tt.opts)
			s.Ingest(h)
			var mid *Snapshot
			var midSeq uint64
			for i := range recs {
				rec := recs[i]
				if !tt.offsets {
					rec.Line, rec.Offset = 0, 0 // a record from a tap, not a file
				}
				s.Ingest(&rec)
				if i == len(recs)/2 {
					mid, midSeq = s.Snapshot(), rec.Seq
				}
			}
			snap := s.Final()
			ignore := cmpopts.IgnoreFields(capture.Record{}, "Line")
			if !tt.offsets {
				ignore = cmpopts.IgnoreFields(capture.Record{}, "Line", "Offset")
			}
			frames := 0
			for _, want := range recs {
				if want.Type != capture.TypeFrame {
					continue
				}
				frames++
				got, err := snap.Frame(want.Seq)
				if err != nil {
					t.Fatalf("Frame(%d): %v", want.Seq, err)
				}
				if diff := cmp.Diff(want, got, ignore); diff != "" {
					t.Errorf("Frame(%d) (-reader +snapshot):\n%s", want.Seq, diff)
				}
				_, err = mid.Frame(want.Seq)
				if late := want.Seq > midSeq; late != errors.Is(err, ErrNoFrame) {
					t.Errorf("midway snapshot: Frame(%d) = %v", want.Seq, err)
				}
			}
			if frames != snap.Counts.Frames || frames != 300 {
				t.Errorf("checked %d frames, the snapshot counts %d, want 300", frames, snap.Counts.Frames)
			}
			for _, seq := range []uint64{0, 4, 100_000} {
				if _, err := snap.Frame(seq); !errors.Is(err, ErrNoFrame) {
					t.Errorf("Frame(%d) = %v, want ErrNoFrame", seq, err)
				}
			}
		})
	}
	plain := New(nil)
	plain.Ingest(h)
	plain.Ingest(&recs[0])
	if _, err := plain.Snapshot().Frame(recs[0].Seq); !errors.Is(err, ErrNoFrame) {
		t.Errorf("a store without Source or KeepFrames: Frame = %v, want ErrNoFrame", err)
	}
}
