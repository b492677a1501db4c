package capture

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// t0 is the session start every test capture uses.
var t0 = time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)

// newCapture returns a capture with a session header, filled by write.
func newCapture(t testing.TB, write func(w *Writer)) []byte {
	t.Helper()
	return newCaptureWith(t, &Record{Type: TypeSession, Time: t0, Format: FormatVersion, SessionID: "s1", Transport: "stdio", Command: []string{"srv", "--flag"}}, write)
}

// newCaptureWith returns a capture with the given session header, filled by
// write.
func newCaptureWith(t testing.TB, header *Record, write func(w *Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(header); err != nil {
		t.Fatal(err)
	}
	if write != nil {
		write(w)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll opens a capture and returns its records and damage.
func readAll(t testing.TB, b []byte) ([]Record, Damage) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var recs []Record
	for {
		var rec Record
		err := r.Next(&rec)
		if errors.Is(err, io.EOF) {
			return recs, r.Damage()
		}
		if err != nil {
			t.Fatalf("Next after %d records: %v", len(recs), err)
		}
		recs = append(recs, rec)
	}
}

// payload names which fields of a frame record hold its bytes.
func payload(r *Record) string {
	var s string
	if len(r.Msg) > 0 {
		s += "msg "
	}
	if r.Raw != "" {
		s += "raw "
	}
	if r.B64 != nil {
		s += "b64 "
	}
	if len(r.Msg) == 0 && r.Raw == "" && r.B64 == nil {
		s += "text "
	}
	return s
}

func TestWriteLineRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		typ     Type
		line    string
		noEOL   bool
		payload string
	}{
		{"json request", TypeFrame, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, false, "msg "},
		{"inner whitespace", TypeFrame, "{ \"jsonrpc\" : \"2.0\",\t\"id\" : [ 1 , 2 ] }", false, "msg "},
		{"newlines inside json (http body)", TypeFrame, "{\n  \"jsonrpc\": \"2.0\",\r\n  \"id\": 1\n}", false, "msg raw "},
		{"array", TypeFrame, `[{"jsonrpc":"2.0","method":"a"}]`, false, "msg "},
		{"surrounding whitespace", TypeFrame, "  {\"a\":1}\t ", false, "msg raw "},
		{"crlf", TypeFrame, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r", false, "msg raw "},
		{"unicode space before json", TypeFrame, "\u00a0{\"a\":1}", false, "msg raw "},
		{"duplicate names", TypeFrame, `{"id":1,"id":2,"jsonrpc":"2.0","result":{}}`, false, "msg "},
		{"line separators in a string", TypeFrame, "{\"t\":\"\u2028\u2029\"}", false, "msg "},
		{"escaped nul", TypeFrame, `{"t":"\u0000"}`, false, "msg "},
		{"escaped lone surrogate", TypeFrame, `{"t":"\udead"}`, false, "text "},
		{"non-json text", TypeFrame, "Server starting on stdio...", false, "text "},
		{"json scalar", TypeFrame, `42`, false, "text "},
		{"truncated json", TypeFrame, `{"jsonrpc":"2.0","id":`, false, "text "},
		{"quotes and backslashes", TypeFrame, `he said "hi" \o/`, false, "text "},
		{"control characters", TypeFrame, "bell\a esc\x1b nul\x00", false, "text "},
		{"invalid utf-8 in json", TypeFrame, "{\"t\":\"\xff\xfe\"}", false, "b64 "},
		{"invalid utf-8 text", TypeFrame, "\xc3\x28 broken", false, "b64 "},
		{"empty line", TypeFrame, "", false, "text "},
		{"whitespace only", TypeFrame, " \t\r", false, "text "},
		{"no eol", TypeFrame, `{"jsonrpc":"2.0","method":"notifications/x"}`, true, "msg "},
		{"no eol crlf", TypeFrame, "{\"a\":1}\r", true, "msg raw "},
		{"stderr json stays text", TypeStderr, `{"level":"info"}`, false, "text "},
		{"stderr invalid utf-8", TypeStderr, "log \xff", false, "b64 "},
		{"stderr empty", TypeStderr, "", false, "text "},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			seq := uint64(i + 1)
			at := t0.Add(time.Duration(i) * time.Microsecond)
			env := &HTTP{Exchange: "x1", Method: "POST", Status: 200, Headers: map[string]string{"Mcp-Method": "tools/call"}}
			b := newCapture(t, func(w *Writer) {
				if err := w.WriteLine(tt.typ, seq, at, S2C, []byte(tt.line), tt.noEOL, "c7", env); err != nil {
					t.Fatal(err)
				}
			})
			recs, dmg := readAll(t, b)
			if len(recs) != 1 || dmg.Corrupt != 0 || dmg.Torn {
				t.Fatalf("read %d records, damage %+v; capture:\n%s", len(recs), dmg, b)
			}
			r := recs[0]
			if got := r.Bytes(); !bytes.Equal(got, []byte(tt.line)) {
				t.Errorf("Bytes() = %q, want %q; capture:\n%s", got, tt.line, b)
			}
			if got := payload(&r); got != tt.payload {
				t.Errorf("payload fields = %q, want %q; capture:\n%s", got, tt.payload, b)
			}
			want := Record{Type: tt.typ, Seq: seq, Time: at, Dir: S2C, Conn: "c7", Size: len(tt.line), NoEOL: tt.noEOL, HTTP: env}
			got := Record{Type: r.Type, Seq: r.Seq, Time: r.Time, Dir: r.Dir, Conn: r.Conn, Size: r.Size, NoEOL: r.NoEOL, HTTP: r.HTTP}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteRecordRoundTrip checks the non-frame records and that Write of a
// frame record is the same as WriteLine.
func TestWriteRecordRoundTrip(t *testing.T) {
	t.Parallel()
	exit := 3
	want := []Record{
		{Type: TypeFrame, Seq: 1, Time: t0, Dir: C2S, Size: 7, Msg: []byte(`{"a":1}`)},
		{Type: TypeFrame, Seq: 2, Time: t0, Dir: S2C, Size: 9, Msg: []byte(`{"a":1}`), Raw: "{\"a\":1}\r\n"[:9]},
		{Type: TypeFrame, Seq: 3, Time: t0, Dir: S2C, Size: 2, B64: []byte{0xff, 0x00}},
		{Type: TypeStderr, Seq: 4, Time: t0, Size: 5, Text: "oops!"},
		{Type: TypeNote, Time: t0.Add(time.Second), Note: NoteCaptureGap, LostFrame: 12, LostBytes: 3400, Text: "disk full"},
		{Type: TypeNote, Time: t0.Add(2 * time.Second), Note: NoteServerExit, Exit: &exit, Signal: "SIGTERM"},
		{Type: TypeEnd, Time: t0.Add(3 * time.Second)},
	}
	b := newCapture(t, func(w *Writer) {
		for i := range want {
			if err := w.Write(&want[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
	got, dmg := readAll(t, b)
	if dmg.Corrupt != 0 || dmg.Torn {
		t.Errorf("damage %+v", dmg)
	}
	if diff := cmp.Diff(want, got, ignorePos); diff != "" {
		t.Errorf("records (-want +got):\n%s\ncapture:\n%s", diff, b)
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	t.Parallel()
	b := newCapture(t, nil)
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Type: TypeSession, Time: t0, Format: FormatVersion, SessionID: "s1", Transport: "stdio", Command: []string{"srv", "--flag"}}
	if diff := cmp.Diff(want, *r.Header(), ignorePos); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	var rec Record
	if err := r.Next(&rec); !errors.Is(err, io.EOF) {
		t.Errorf("Next on a header-only capture = %v, want io.EOF", err)
	}
	if err := r.Next(&rec); !errors.Is(err, io.EOF) {
		t.Errorf("Next after EOF = %v, want io.EOF again", err)
	}
}
