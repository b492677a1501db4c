package capture

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sessionSummary is what a test checks of one session in a file.
type sessionSummary struct {
	ID      string
	Types   []Type
	Torn    bool
	Corrupt []int
}

// readSessions reads every session of in with NextSession.
func readSessions(t *testing.T, in string) []sessionSummary {
	t.Helper()
	r, err := NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out []sessionSummary
	for {
		s := sessionSummary{ID: r.Header().SessionID}
		var rec Record
		for {
			err := r.Next(&rec)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			s.Types = append(s.Types, rec.Type)
		}
		d := r.Damage()
		s.Torn, s.Corrupt = d.Torn, d.CorruptLines
		out = append(out, s)
		if err := r.NextSession(); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

func hdr(id string) string {
	return `{"type":"session","time":"2026-07-28T09:00:00Z","format":1,"session_id":"` + id + `","transport":"stdio"}` + "\n"
}

func TestReaderSessions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []sessionSummary
	}{
		{"one session", hdr("a") + recA + endA, []sessionSummary{{ID: "a", Types: []Type{TypeStderr, TypeEnd}}}},
		{"two ended sessions", hdr("a") + recA + endA + hdr("b") + endA, []sessionSummary{
			{ID: "a", Types: []Type{TypeStderr, TypeEnd}},
			{ID: "b", Types: []Type{TypeEnd}},
		}},
		{"a killed session, then another", hdr("a") + recA + hdr("b") + recA, []sessionSummary{
			{ID: "a", Types: []Type{TypeStderr}},
			{ID: "b", Types: []Type{TypeStderr}},
		}},
		// CreateFile (Append) ends a torn tail with a newline.
		{"a torn tail ended by append", hdr("a") + recA + `{"type":"std` + "\n" + hdr("b") + endA, []sessionSummary{
			{ID: "a", Types: []Type{TypeStderr}, Torn: true},
			{ID: "b", Types: []Type{TypeEnd}},
		}},
		{"corrupt line inside a session stays corrupt", hdr("a") + "garbage\n" + recA + hdr("b") + "junk\n", []sessionSummary{
			{ID: "a", Types: []Type{TypeStderr}, Corrupt: []int{2}},
			{ID: "b", Corrupt: []int{5}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, readSessions(t, tt.in)); diff != "" {
				t.Errorf("sessions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNextSessionSkipsUnread(t *testing.T) {
	t.Parallel()
	r, err := NewReader(strings.NewReader(hdr("a") + recA + recA + endA + hdr("b") + recA + endA + hdr("c")))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for {
		ids = append(ids, r.Header().SessionID)
		if err := r.NextSession(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func TestNextSessionFuture(t *testing.T) {
	t.Parallel()
	future := `{"type":"session","time":"2026-07-28T09:00:00Z","format":99,"session_id":"z"}` + "\n"
	r, err := NewReader(strings.NewReader(hdr("a") + endA + future + recA))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.NextSession(); !errors.Is(err, ErrFutureVersion) {
		t.Errorf("NextSession = %v, want ErrFutureVersion", err)
	}
}

func TestIndexAndOpenSession(t *testing.T) {
	t.Parallel()
	long := `{"type":"stderr","seq":2,"time":"2026-07-28T09:00:01Z","text":"` + strings.Repeat("x", 3<<20) + `"}` + "\n"
	in := hdr("a") + recA + long + endA + hdr("b") + "garbage\n" + recA + endA
	idx, err := Index(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range idx {
		got = append(got, s.Header.SessionID)
	}
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Fatalf("Index ids (-want +got):\n%s", diff)
	}
	if idx[1].Line != 5 || idx[1].Offset != int64(strings.Index(in, hdr("b"))) {
		t.Errorf("session b at line %d offset %d", idx[1].Line, idx[1].Offset)
	}
	r, err := OpenSession(strings.NewReader(in), &idx[1])
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := readRest(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Header().SessionID != "b" || len(recs) != 2 || r.Damage().CorruptLines[0] != 6 {
		t.Errorf("session b: header %q, %d records, damage %+v", r.Header().SessionID, len(recs), r.Damage())
	}
	if _, err := Index(strings.NewReader("not a capture\n")); !errors.Is(err, ErrNotCapture) {
		t.Errorf("Index of a non-capture: %v", err)
	}
}

// readRest reads r's records to the end of its session.
func readRest(r *Reader) (*Record, []Record, error) {
	var recs []Record
	for {
		var rec Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return r.Header(), recs, nil
		}
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, rec)
	}
}
