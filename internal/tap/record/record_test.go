package record_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tap/feed"
	"github.com/mcptrail/mcptrail/internal/tap/record"
	"github.com/mcptrail/mcptrail/internal/testbin"
)

var t0 = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)

// session returns the session record the tests start with.
func session() *capture.Record {
	return &capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: "s", Transport: "http", Time: t0}
}

// frame returns frame i: a message whose size varies with i.
func frame(i int) *capture.Record {
	raw := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":%q}}`, i, strings.Repeat("x", i%97))
	return &capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: t0, Dir: capture.C2S, Raw: raw, Size: len(raw)}
}

// TestFinishAccountsForEveryFrame writes frames through a Recorder whose
// disk fills up part way, flushing every few records as a tap does when it
// catches up: the file's frames and the capture-gap note's counts add up
// to what was handed over, including the frames that were buffered when
// the write failed, and OnError is called once, at the failure. The disk
// fills at every byte of a few records, so the cut falls everywhere in a
// line, its newline included.
func TestFinishAccountsForEveryFrame(t *testing.T) {
	t.Parallel()
	type run struct{ limit, frames, flushEvery int }
	runs := []run{{0, 100, 50}, {300_000, 4000, 50}}
	for limit := 10_000; limit < 10_170; limit++ {
		runs = append(runs, run{limit, 200, 50}) // a Flush fails
	}
	// The Writer writes its buffer once it holds 256 KiB: cut that write
	// in the record that filled it.
	for _, limit := range nearNewline(t, 256<<10-1) {
		runs = append(runs, run{limit, 4000, 1 << 30})
	}
	for _, tt := range runs {
		d := &testbin.FullDisk{Limit: tt.limit}
		var errs []error
		r := record.New(d, &record.Options{OnError: func(err error) { errs = append(errs, err) }})
		r.Record(session())
		r.Flush()
		var n int64
		for i := range tt.frames {
			f := frame(i)
			n += int64(f.Size)
			r.Record(f)
			if i%tt.flushEvery == tt.flushEvery-1 {
				r.Flush()
			}
			if i == tt.frames/2 {
				d.Free() // the disk failed before: space is freed, the recorder stays stopped
			}
		}
		err := r.Finish(t0)
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "recorded in a capture-gap note") {
			t.Fatalf("limit %d: Finish = %v, want ENOSPC recorded in a capture-gap note", tt.limit, err)
		}
		if len(errs) != 1 || !errors.Is(errs[0], syscall.ENOSPC) {
			t.Errorf("limit %d: OnError got %v, want one ENOSPC", tt.limit, errs)
		}
		checkGap(t, d.Bytes(), int64(tt.frames), n, r.Lost())
	}
}

// nearNewline returns disk limits that cut the capture
// TestFinishAccountsForEveryFrame writes at the first newline at or past
// offset off of its frames, and one byte either side.
func nearNewline(t *testing.T, off int) []int {
	t.Helper()
	var buf bytes.Buffer
	w := capture.NewWriter(&buf)
	if err := w.Write(session()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	off += buf.Len() // the tests flush the session record on its own
	for i := 0; buf.Len()+w.Buffered() < off+1000; i++ {
		if err := w.Write(frame(i)); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	i := off + bytes.IndexByte(buf.Bytes()[off:], '\n')
	return []int{i - 1, i, i + 1}
}

// checkGap checks that the capture's frames and its capture-gap note add
// up to frames frames of n bytes, that the note names the seqs the file
// lacks, and that it says what Lost says.
func checkGap(t *testing.T, capt []byte, frames, n int64, lost record.Lost) {
	t.Helper()
	gap := testbin.CheckCaptureGapBytes(t, capt, frames, n)
	got := record.Lost{Frames: gap.LostFrame, Bytes: gap.LostBytes, Other: gap.LostOther, FirstSeq: gap.LostFirstSeq, LastSeq: gap.LostLastSeq}
	if got != lost {
		t.Errorf("the note says %+v, Lost %+v", got, lost)
	}
}

// TestFinishWhole: a capture that never failed ends with its end record,
// and the feed gets every record with its place in the file.
func TestFinishWhole(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	fd := feed.New(nil)
	sub := fd.Subscribe(nil)
	r := record.New(&buf, &record.Options{Feed: fd, OnError: func(err error) { t.Errorf("OnError(%v)", err) }})
	r.Record(&capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: "s", Transport: "stdio", Time: t0})
	r.Record(frame(0))
	r.Record(&capture.Record{Type: capture.TypeNote, Note: "client-closed", Time: t0})
	if err := r.Finish(t0); err != nil {
		t.Fatalf("Finish = %v", err)
	}
	r.Close()
	if r.Err() != nil || r.Lost() != (record.Lost{}) {
		t.Errorf("Err %v, Lost %+v after a whole capture", r.Err(), r.Lost())
	}
	var got []string
	for {
		var rec capture.Record
		err := sub.Next(context.Background(), &rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s", rec.Line, rec.Type))
	}
	want := []string{"1 session", "2 frame", "3 note", "4 end"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fed (-want +got):\n%s", diff)
	}
	if n := strings.Count(buf.String(), "\n"); n != 4 {
		t.Errorf("%d lines in the capture, want 4:\n%s", n, buf.String())
	}
}
