package source_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

const canary = "CANARY-4242"

// writeCanary writes a finished capture that carries the canary in a
// call's arguments, an error message, a notification, an elicitation, a
// stderr line and a note.
func writeCanary(t *testing.T, path string) {
	w := newWriter(t, path, "canary")
	w.frame(capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"api_key":"`+canary+`"}}}`)
	w.frame(capture.S2C, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"message":"`+canary+`"}}`)
	w.frame(capture.S2C, `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"form","message":"Type `+canary+`","requestedSchema":{"type":"object","properties":{"pin":{"type":"string"}}}}}`)
	w.frame(capture.C2S, `{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"pin":"`+canary+`"}}}`)
	w.frame(capture.S2C, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"bad key `+canary+`"}}`)
	w.seq++
	if err := w.w.Append(&capture.Line{Type: capture.TypeStderr, Seq: w.seq, Time: w.now, Bytes: []byte("token=" + canary)}); err != nil {
		t.Fatal(err)
	}
	w.seq++
	w.record(&capture.Record{Type: capture.TypeNote, Seq: w.seq, Time: w.now, Note: capture.NoteRelayError, Text: "relay " + canary})
	w.end()
	w.close()
}

// dump is every string a Data shows, and every frame it reads back.
func dump(t *testing.T, d ui.Data) string {
	var b strings.Builder
	snap := d.Snap
	fmt.Fprintf(&b, "%+v\n%+v\n%+v\n%+v\n%+v\n%+v\n", snap.Session, snap.Calls.Slice(), snap.Ledger.Slice(),
		snap.Findings.Slice(), snap.Operations.Slice(), d.Lines)
	for seq := uint64(1); seq <= uint64(snap.Counts.Records); seq++ {
		rec, err := d.Frame(seq)
		if err == nil {
			fmt.Fprintf(&b, "%s %s %s\n", rec.Msg, rec.Text, rec.Raw)
		}
	}
	return b.String()
}

// TestRedactedData: with a Redactor the canary is in no Data (calls,
// ledger, findings, lines) and in no frame Data.Frame reads back, for
// Open and Read alike; without one it is (so the test sees it at all).
func TestRedactedData(t *testing.T) {
	t.Parallel()
	path := tempCapture(t)
	writeCanary(t, path)
	open := func(red redact.Redactor) *source.Session {
		s, err := source.Open(context.Background(), path, "", &source.Options{Redactor: red})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	read := func(red redact.Redactor) *source.Session {
		s, err := source.Read(context.Background(), strings.NewReader(mustRead(t, path)), "", &source.Options{Redactor: red})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for name, start := range map[string]func(redact.Redactor) *source.Session{"open": open, "read": read} {
		t.Run(name, func(t *testing.T) {
			plain := start(nil)
			defer plain.Close()
			if got := dump(t, drain(t, plain)); !strings.Contains(got, canary) {
				t.Fatalf("without a Redactor the Data does not show the canary:\n%s", got)
			}
			red, err := redact.New(&redact.Options{Secrets: true, Answers: true, Values: []*regexp.Regexp{regexp.MustCompile(`CANARY-\d+`)}})
			if err != nil {
				t.Fatal(err)
			}
			s := start(red)
			defer s.Close()
			d := drain(t, s)
			got := dump(t, d)
			if strings.Contains(got, canary) {
				t.Errorf("the redacted Data shows the canary:\n%s", got)
			}
			if d.Snap.Ledger.Len() != 1 || len(d.Lines) != 3 {
				t.Errorf("%d ledger rows, %d lines; want 1 and 3", d.Snap.Ledger.Len(), len(d.Lines))
			}
		})
	}
}
