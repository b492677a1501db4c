package capture

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lineRecordCases are lines whose records take each payload form.
var lineRecordCases = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
	"{ \"jsonrpc\" : \"2.0\",\t\"id\" : [ 1 , 2 ] }",
	"{\n  \"jsonrpc\": \"2.0\",\r\n  \"id\": 1\n}",
	"  {\"a\":1}\t ",
	"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r",
	"\u00a0{\"a\":1}",
	`{"id":1,"id":2,"jsonrpc":"2.0","result":{}}`,
	`{"t":"\udead"}`,
	"Server starting on stdio...",
	`42`,
	"bell\a esc\x1b nul\x00",
	"{\"t\":\"\xff\xfe\"}",
	"\xc3\x28 broken",
	"",
	" \t\r",
}

// TestLineRecordIsWhatReaderReads: the record a live consumer is handed
// for a Line (Line.Record, AppendDecoded) is the record a Reader decodes from what
// Append wrote for it, for every payload form, plain and redacted.
func TestLineRecordIsWhatReaderReads(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 7, 28, 9, 0, 0, 123456789, time.FixedZone("x", 3600))
	env := &HTTP{Exchange: "x1", Method: "POST", Status: 200, Headers: map[string]string{"Mcp-Method": "tools/call"}}
	var lines []Line
	for i, s := range lineRecordCases {
		lines = append(lines,
			Line{Type: TypeFrame, Seq: uint64(i + 1), Time: at, Dir: S2C, Bytes: []byte(s), Conn: "c7", HTTP: env},
			Line{Type: TypeFrame, Seq: uint64(i + 1), Time: at, Dir: C2S, Bytes: []byte(s), NoEOL: true},
			Line{Type: TypeFrame, Seq: uint64(i + 1), Time: at, Dir: C2S, Bytes: []byte(s), Redacted: true, Size: 99},
			Line{Type: TypeStderr, Time: at, Bytes: []byte(s)})
	}
	decoded := make([]Record, len(lines))
	b := newCapture(t, func(w *Writer) {
		for i := range lines {
			if err := w.AppendDecoded(&lines[i], &decoded[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
	recs, dmg := readAll(t, b)
	if len(recs) != len(lines) || dmg.Corrupt != 0 || dmg.Torn {
		t.Fatalf("read %d records, want %d; damage %+v", len(recs), len(lines), dmg)
	}
	for i := range lines {
		var got Record
		lines[i].Record(&got)
		want := recs[i]
		want.Line, want.Offset = 0, 0
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("line %q: Line.Record (-read back +got):\n%s", lines[i].Bytes, diff)
		}
		if diff := cmp.Diff(want, decoded[i]); diff != "" {
			t.Errorf("line %q: AppendDecoded (-read back +got):\n%s", lines[i].Bytes, diff)
		}
	}
}

// FuzzLineRecord holds Line.Record to the Reader for any line.
func FuzzLineRecord(f *testing.F) {
	for _, s := range lineRecordCases {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, stderr bool) {
		l := Line{Type: TypeFrame, Seq: 1, Time: time.Unix(1, 5).UTC(), Dir: C2S, Bytes: line}
		if stderr {
			l.Type, l.Seq, l.Dir = TypeStderr, 0, ""
		}
		b := newCapture(t, func(w *Writer) {
			if err := w.Append(&l); err != nil {
				t.Fatal(err)
			}
		})
		recs, _ := readAll(t, b)
		if len(recs) != 1 {
			t.Fatalf("read %d records", len(recs))
		}
		var got Record
		l.Record(&got)
		recs[0].Line, recs[0].Offset = 0, 0
		if diff := cmp.Diff(recs[0], got); diff != "" {
			t.Errorf("Line.Record (-read back +got):\n%s", diff)
		}
	})
}
