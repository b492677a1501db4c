package capture

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestFormatV1File reads testdata/v1.jsonl, a capture written by format 1
// and kept byte for byte: later builds must keep reading it the same way.
// Do not regenerate it; add a new file when the format changes.
func TestFormatV1File(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("testdata", "v1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	recs, dmg := readAll(t, b)
	if dmg.Torn || dmg.Corrupt != 0 {
		t.Errorf("damage %+v", dmg)
	}
	type view struct {
		Type   Type
		Seq    uint64
		MS     int64 // milliseconds after the session start
		Dir    Dir
		Size   int
		Bytes  string
		NoEOL  bool
		Note   string
		Exit   *int
		Fields string // payload fields used
	}
	zero := 0
	want := []view{
		{TypeFrame, 1, 1, C2S, 216, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, false, "", nil, "msg "},
		{TypeStderr, 0, 2, "", 26, "fetching forecast for Oslo", false, "", nil, "text "},
		{TypeFrame, 2, 3, S2C, 41, "Debugger listening on ws://127.0.0.1:9229", false, "", nil, "text "},
		{TypeFrame, 3, 40, S2C, 104, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"-3 \u00b0C\"}]}}\r", false, "", nil, "msg raw "},
		{TypeFrame, 4, 41, C2S, 49, "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"b\":\"\xff\"}}", false, "", nil, "b64 "},
		{TypeFrame, 5, 42, C2S, 95, `  { "jsonrpc" : "2.0" , "method" : "notifications/cancelled" , "params" : { "requestId" : 9 } }`, true, "", nil, "msg raw "},
		{TypeNote, 0, 43, "", 0, "", false, NoteClientClosed, nil, "text "},
		{TypeNote, 0, 50, "", 0, "", false, NoteServerExit, &zero, "text "},
		{TypeEnd, 0, 51, "", 0, "", false, "", nil, "text "},
	}
	var got []view
	for i := range recs {
		r := &recs[i]
		got = append(got, view{r.Type, r.Seq, r.Time.Sub(t0).Milliseconds(), r.Dir, r.Size, string(r.Bytes()), r.NoEOL, r.Note, r.Exit, payload(r)})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	r, err := NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	wantHeader := Record{Type: TypeSession, Time: t0, Format: 1, SessionID: "0123456789abcdef", Transport: "stdio",
		Label: "weather", Command: []string{"node", "weather.js"}, ToolVersion: "0.1.0"}
	if diff := cmp.Diff(wantHeader, *h, ignorePos); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	if !h.Time.Equal(time.Date(2026, 7, 28, 12, 0, 0, 123456789, time.UTC)) {
		t.Errorf("header time %v lost precision", h.Time)
	}

	// This build's Writer still writes format 1 byte for byte like this.
	again := newCaptureWith(t, h, func(w *Writer) {
		for i := range recs {
			if err := w.Write(&recs[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
	if !bytes.Equal(again, b) {
		t.Errorf("rewriting testdata/v1.jsonl changed it:\n%s", again)
	}
}

// TestFormatDoc keeps docs/capture-format.md in step with the code: its
// example is testdata/v1.jsonl, and it names the format version, every
// record type and every note kind.
func TestFormatDoc(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "capture-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	v1, err := os.ReadFile(filepath.Join("testdata", "v1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := bytes.Cut(doc, []byte("```jsonl\n"))
	if ok {
		example, _, ok = bytes.Cut(example, []byte("```"))
	}
	if !ok || !bytes.Equal(example, v1) {
		t.Errorf("the first jsonl block of docs/capture-format.md is not testdata/v1.jsonl:\n%s", example)
	}
	if v := fmt.Sprintf("format version **%d**", FormatVersion); !bytes.Contains(doc, []byte(v)) {
		t.Errorf("docs/capture-format.md does not say %q", v)
	}
	names := []string{
		string(TypeSession), string(TypeFrame), string(TypeStderr), string(TypeNote), string(TypeEnd),
		NoteServerExit, NoteClientClosed, NoteCaptureGap, NoteStartFailed, NoteRelayError, NoteSignal,
	}
	for _, name := range names {
		if !bytes.Contains(doc, []byte("`"+name+"`")) {
			t.Errorf("docs/capture-format.md does not mention `%s`", name)
		}
	}
}
