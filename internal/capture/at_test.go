package capture

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReadAt checks that the record ReadAt decodes at each offset a Reader
// reported is the record the Reader read, for every way a frame is held
// (msg, raw, text, b64, an HTTP envelope, a line longer than ReadAt's
// first read), and that an offset inside a line or past the end is no
// record.
func TestReadAt(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(&Record{Type: TypeSession, Time: at, Format: FormatVersion, SessionID: "s"}); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		" {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r",
		"not json at all",
		"\xff\xfe bytes",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"text":"` + strings.Repeat("é", 9000) + `"}}`,
	}
	for i, l := range lines {
		var env *HTTP
		if i == 1 {
			env = &HTTP{Exchange: "e1", Method: "POST", Path: "/mcp", Headers: map[string]string{"Mcp-Session-Id": "x"}}
		}
		if err := w.WriteLine(TypeFrame, uint64(i+1), at, C2S, []byte(l), false, "c", env); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(&Record{Type: TypeNote, Seq: 9, Time: at, Note: NoteRelayError, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for {
		var want Record
		if err := r.Next(&want); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		got, err := ReadAt(bytes.NewReader(data), want.Offset)
		if err != nil {
			t.Fatalf("ReadAt(%d): %v", want.Offset, err)
		}
		want.Line = 0
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ReadAt(%d) (-reader +ReadAt):\n%s", want.Offset, diff)
		}
	}
	for _, off := range []int64{int64(len(data)), int64(len(data)) + 10, int64(bytes.IndexByte(data, '\n')) - 3} {
		if _, err := ReadAt(bytes.NewReader(data), off); !errors.Is(err, ErrNoRecord) {
			t.Errorf("ReadAt(%d) = %v, want ErrNoRecord", off, err)
		}
	}
}
