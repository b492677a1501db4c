package capture

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignorePos compares records without where a Reader found them.
var ignorePos = cmpopts.IgnoreFields(Record{}, "Line", "Offset")

// checkPos fails unless rec's Line and Offset point at its line in file.
func checkPos(t *testing.T, file []byte, rec *Record) {
	t.Helper()
	if rec.Offset < 0 || rec.Offset >= int64(len(file)) {
		t.Fatalf("seq %d %s: offset %d outside the file (%d bytes)", rec.Seq, rec.Type, rec.Offset, len(file))
	}
	if rec.Offset > 0 && file[rec.Offset-1] != '\n' {
		t.Errorf("seq %d %s: offset %d is not the start of a line", rec.Seq, rec.Type, rec.Offset)
	}
	if want := bytes.Count(file[:rec.Offset], []byte("\n")) + 1; rec.Line != want {
		t.Errorf("seq %d %s: line %d, want %d", rec.Seq, rec.Type, rec.Line, want)
	}
	if !bytes.HasPrefix(file[rec.Offset:], []byte(`{"type":"`+string(rec.Type)+`"`)) {
		t.Errorf("seq %d: offset %d holds %.40q, not a %s record", rec.Seq, rec.Offset, file[rec.Offset:], rec.Type)
	}
}

// TestRecordPositions checks that every record, header included, says
// where it sits in the file, through Reader, OpenSession and Follow, past
// a corrupt line and across sessions.
func TestRecordPositions(t *testing.T) {
	t.Parallel()
	one := newCapture(t, frames(t, 5))
	two := newCapture(t, func(w *Writer) {
		frames(t, 3)(w)
		if err := w.Write(&Record{Type: TypeEnd, Time: t0}); err != nil {
			t.Fatal(err)
		}
	})
	file := append(append(append([]byte(nil), one...), "not a record\n"...), two...)

	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		checkPos(t, file, r.Header())
		var rec Record
		for r.Next(&rec) == nil {
			checkPos(t, file, &rec)
			n++
		}
		if err := r.NextSession(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
	}
	if n < 8 {
		t.Errorf("read %d records across both sessions, want at least 8", n)
	}

	sessions, err := Index(bytes.NewReader(file))
	if err != nil || len(sessions) != 2 {
		t.Fatalf("Index: %d sessions, %v", len(sessions), err)
	}
	sr, err := OpenSession(bytes.NewReader(file), &sessions[1])
	if err != nil {
		t.Fatal(err)
	}
	checkPos(t, file, sr.Header())
	var rec Record
	for sr.Next(&rec) == nil {
		checkPos(t, file, &rec)
	}

	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fl, err := Follow(ctx, path, &FollowOptions{Session: &sessions[1]})
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	checkPos(t, file, fl.Header())
	for fl.Next(&rec) == nil {
		checkPos(t, file, &rec)
	}
}
