package capture

import (
	"bytes"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
)

func TestWriteRedactedLine(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 7, 28, 12, 0, 0, 500, time.UTC)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	hdr := &Record{Type: TypeSession, Time: at, Format: FormatVersion, SessionID: "s", Redacted: true}
	if err := w.Write(hdr); err != nil {
		t.Fatal(err)
	}
	lines := []struct {
		t    Type
		line string
		size int
	}{
		{TypeFrame, `{"token":"[REDACTED]", "a":1}`, 40},
		{TypeFrame, " {\"token\":\"[REDACTED]\"}\r", 30},
		{TypeFrame, "text [REDACTED]", 20},
		{TypeStderr, "key [REDACTED]", 10},
	}
	for i, l := range lines {
		seq := uint64(i + 1)
		if l.t == TypeStderr {
			seq = 0
		}
		if err := w.WriteRedactedLine(l.t, seq, at, C2S, []byte(l.line), l.size, i == 2, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	h, recs, dmg, err := ReadAll(&buf)
	if err != nil || dmg.Torn || dmg.Corrupt != 0 {
		t.Fatalf("reading: %v %+v", err, dmg)
	}
	if !h.Redacted {
		t.Error("header not marked redacted")
	}
	want := []Record{
		{Type: TypeFrame, Seq: 1, Time: at, Dir: C2S, Size: 40, Msg: jsontext.Value(lines[0].line), Redacted: true},
		{Type: TypeFrame, Seq: 2, Time: at, Dir: C2S, Size: 30, Msg: jsontext.Value(`{"token":"[REDACTED]"}`), Raw: lines[1].line, Redacted: true},
		{Type: TypeFrame, Seq: 3, Time: at, Dir: C2S, Size: 20, Text: lines[2].line, NoEOL: true, Redacted: true},
		{Type: TypeStderr, Time: at, Dir: C2S, Size: 10, Text: lines[3].line, Redacted: true},
	}
	if diff := cmp.Diff(want, recs, ignorePos); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
