package store

import (
	"fmt"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// onConn is a frame on connection conn.
func onConn(conn string, dir capture.Dir, raw string) step {
	return step{rec: &capture.Record{Type: capture.TypeFrame, Dir: dir, Conn: conn, Msg: jsontext.Value(raw)}}
}

// refLines renders each row's references to its question and answer.
func refLines(rows []LedgerRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("asked=%d@%d/%q entry=%d answered=%d@%d/%q",
			r.AskedSeq, r.AskedLine, r.AskedConn, r.Entry, r.AnsweredSeq, r.AnsweredLine, r.AnsweredConn)
	}
	return out
}

// TestLedgerRowsReferToTheirFrames: a row names the frame of its question
// and of its answer (seq, capture line, connection), and the frame that
// answered it hands the row out in Frame.Answers. Two connections whose
// servers ask with the same id are answered each on its own.
func TestLedgerRowsReferToTheirFrames(t *testing.T) {
	t.Parallel()
	form := req("5", "elicitation/create", `{"message":"?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}`)
	urlAsk := req("5", "elicitation/create", `{"mode":"url","message":"m","url":"https://x.example/"}`)
	required := `{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"visit","data":{"elicitations":[` +
		`{"mode":"url","message":"a","url":"https://a.example/","elicitationId":"a"},` +
		`{"mode":"url","message":"b","url":"https://b.example/","elicitationId":"b"}]}}}`
	steps := []step{
		onConn("a", capture.S2C, form),
		onConn("b", capture.S2C, urlAsk),
		onConn("b", capture.C2S, res("5", `{"action":"decline"}`)),
		onConn("a", capture.C2S, res("5", `{"action":"accept","content":{"n":1}}`)),
		c2s(1, req("1", "tools/call", `{"name":"t"}`)),
		s2c(1, required),
	}
	answers := map[uint64][]string{}
	snap := loadBytes(t, captureOf(t, steps), &Options{OnFrame: func(f *Frame) {
		if f.Answers != nil {
			answers[f.Seq] = refLines(f.Answers)
		}
	}})
	checkLedgerConsistent(t, snap)
	want := []string{
		`asked=1@2/"a" entry=0 answered=4@5/"a"`,
		`asked=2@3/"b" entry=0 answered=3@4/"b"`,
		`asked=6@7/"" entry=0 answered=0@0/""`,
		`asked=6@7/"" entry=1 answered=0@0/""`,
	}
	if diff := cmp.Diff(want, refLines(snap.Ledger.Slice())); diff != "" {
		t.Errorf("ledger references (-want +got):\n%s", diff)
	}
	wantAnswers := map[uint64][]string{3: {want[1]}, 4: {want[0]}}
	if diff := cmp.Diff(wantAnswers, answers); diff != "" {
		t.Errorf("Frame.Answers by seq (-want +got):\n%s", diff)
	}
	if a := snap.Ledger.At(0); a.Action != "accept" || a.Mode != "form" {
		t.Errorf("row 0 answered %q in %s mode; want a's accept of the form", a.Action, a.Mode)
	}
}
