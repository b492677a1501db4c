package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzSessions checks the two ways of finding the sessions of a file that
// holds several (mcptrail --append) against each other: Index, then
// OpenSession at each offset, must list the same sessions, with the same
// records, as one Reader walking the file with NextSession.
func FuzzSessions(f *testing.F) {
	addCaptureSeeds(f, func(b []byte) { f.Add(b) })
	two := `{"type":"session","format":1,"session_id":"a"}` + "\n" + `{"type":"frame","seq":1,"dir":"c2s","msg":{"a":1}}` + "\n" +
		`{"type":"end"}` + "\n" + `{"type":"session","format":1,"session_id":"b"}` + "\n" + `{"type":"frame","seq":1,"dir":"s2c","raw":"x"}` + "\n"
	f.Add([]byte(two))
	f.Add([]byte(two[:len(two)-9] + "\r\n" + `{"type":"session","format":1,"session_id":"c"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := Index(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrNotCapture) {
				t.Fatalf("Index: %v", err)
			}
			return
		}
		walked, err := walkSessions(data)
		if err != nil {
			return // a header NewReader refuses (a future format) ends the walk
		}
		if len(idx) != len(walked) {
			t.Fatalf("Index found %d sessions, NextSession %d", len(idx), len(walked))
		}
		for i := range idx {
			r, err := OpenSession(bytes.NewReader(data), &idx[i])
			if err != nil {
				t.Fatalf("OpenSession %d: %v", i, err)
			}
			got := sessionRecords(t, r)
			if diff := cmp.Diff(walked[i], got); diff != "" {
				t.Fatalf("session %d read at its offset differs from the walk (-walk +open):\n%s", i, diff)
			}
		}
	})
}

// walkSessions reads every session of data with one Reader, each as the
// summary sessionRecords makes.
func walkSessions(data []byte) ([][]string, error) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out [][]string
	for {
		var recs []string
		var rec Record
		for {
			err := r.Next(&rec)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			recs = append(recs, summary(&rec))
		}
		out = append(out, append([]string{r.Header().SessionID}, recs...))
		if err := r.NextSession(); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
	}
}

// sessionRecords reads r's session to its end: the session id, then a
// summary of each record.
func sessionRecords(t *testing.T, r *Reader) []string {
	t.Helper()
	out := []string{r.Header().SessionID}
	var rec Record
	for {
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, summary(&rec))
	}
}

func summary(rec *Record) string {
	return fmt.Sprintf("%s %d %s %q", rec.Type, rec.Seq, rec.Dir, rec.Bytes())
}
