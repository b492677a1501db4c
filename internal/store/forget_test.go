package store

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// forgetFeed feeds records to a store one at a time.
type forgetFeed struct {
	s   *Store
	seq uint64
	at  time.Time
}

func newForgetFeed(opts *Options) *forgetFeed {
	f := &forgetFeed{s: New(opts), at: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
	f.s.Ingest(&capture.Record{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "http", Time: f.at})
	return f
}

// frame ingests msg in direction dir, in HTTP exchange ex ("" for none).
func (f *forgetFeed) frame(dir capture.Dir, ex, msg string) {
	f.seq++
	f.at = f.at.Add(time.Millisecond)
	r := &capture.Record{Type: capture.TypeFrame, Seq: f.seq, Dir: dir, Time: f.at, Msg: jsontext.Value(msg)}
	if ex != "" {
		r.HTTP = &capture.HTTP{Exchange: ex, Status: 200}
	}
	f.s.Ingest(r)
}

// held counts what a store holds per call: calls, ids, tracked arguments,
// HTTP exchanges, declarations and findings.
func held(s *Store) map[string]int {
	ids := 0
	for _, m := range s.byID.spaces {
		ids += m.used + len(m.nums) + len(m.strs)
	}
	return map[string]int{
		"calls": len(s.calls.open), "ids": ids, "tracked": len(s.calls.trackedSet),
		"exchanges": len(s.exchanges) + len(s.forgetting.exchangeOf), "declared": len(s.ledger.declaredOf),
		"findings": len(s.findings), "limbo": len(s.forgetting.limbo) - s.forgetting.head,
	}
}

// TestForgetHoldsOpenCalls runs 4,000 calls of each kind through a
// forgetting store, some left open: answered calls (plain, over HTTP
// exchanges, by an error, duplicated), completed MRTR operations,
// cancelled calls never answered and requests whose id was taken over.
// What it holds then follows what is open (the calls left pending, and
// at most maxLimbo cancelled or shadowed ones), not the 20,000 calls, and
// every operation still completed once.
func TestForgetHoldsOpenCalls(t *testing.T) {
	t.Parallel()
	const n = 4_000
	completed := 0
	f := newForgetFeed(&Options{Forget: true, OnChange: func(ch *Change) {
		if ch.Kind == ChangeOperationCompleted {
			completed++
		}
	}})
	toolCall := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{"q":` + id + `},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	}
	for i := range n {
		id := strconv.Itoa(i)
		f.frame(capture.C2S, "", toolCall(id))
		f.frame(capture.S2C, "", res(id, `{"content":[]}`))
		if i%2 == 0 {
			f.frame(capture.S2C, "", res(id, `{"content":[]}`)) // a duplicate answer
		}
		ex := "x" + id
		sid := strconv.Quote("h" + id)
		f.frame(capture.C2S, ex, toolCall(sid))
		f.frame(capture.S2C, ex, errRes(sid, -32000, "no"))
		// An MRTR operation of two rounds.
		r1, r2 := strconv.Quote("m"+id), strconv.Quote("n"+id)
		f.frame(capture.C2S, "", tool(r1, "ask", `{}`, ""))
		f.frame(capture.S2C, "", inputRequired(r1, elicit("k"), "st"+id))
		f.frame(capture.C2S, "", tool(r2, "ask", `{}`, `,"inputResponses":{"k":{"action":"accept","content":{}}},"requestState":"st`+id+`"`))
		f.frame(capture.S2C, "", done(r2))
		// Cancelled and never answered; then an id reused while pending.
		c := strconv.Quote("c" + id)
		f.frame(capture.C2S, "", toolCall(c))
		f.frame(capture.C2S, "", notif("notifications/cancelled", `{"requestId":`+c+`}`))
		f.frame(capture.C2S, "", toolCall(`"reused"`))
	}
	for i := range 3 {
		f.frame(capture.C2S, "", toolCall(`"open`+strconv.Itoa(i)+`"`))
	}
	if want := 3 * n; completed != want {
		t.Errorf("%d operations completed, want %d", completed, want)
	}
	got := held(f.s)
	open := 3 + 1 // the three left pending, and the last "reused"
	for k, v := range got {
		limit := open + maxLimbo
		if k == "findings" {
			limit = 0
		}
		if v > limit {
			t.Errorf("after %d calls the store holds %d %s, want at most %d", 5*n, v, k, limit)
		}
	}
	if got["calls"] < open {
		t.Errorf("the store holds %d calls, fewer than the %d open", got["calls"], open)
	}
	if len(f.s.xchg) != 0 || f.s.calls.calls.n != 0 {
		t.Errorf("the store keeps %d exchanges, %d packed calls", len(f.s.xchg), f.s.calls.calls.n)
	}
}

// TestForgetKeepsLateAnswer checks that a call cancelled and answered late
// still completes in a forgetting store (its late answer pairs), and that
// an answer to a call dropped from limbo is an answer to nothing.
func TestForgetKeepsLateAnswer(t *testing.T) {
	t.Parallel()
	var late []string
	f := newForgetFeed(&Options{Forget: true, OnChange: func(ch *Change) {
		if ch.Kind == ChangeOperationCompleted && ch.CallAt(ch.Call).Late {
			late = append(late, string(ch.CallAt(ch.Call).ID.Raw()))
		}
	}})
	for i := range maxLimbo + 1 {
		f.frame(capture.C2S, "", req(strconv.Itoa(i), "tools/list", `{}`))
		f.frame(capture.C2S, "", notif("notifications/cancelled", fmt.Sprintf(`{"requestId":%d}`, i)))
	}
	f.frame(capture.S2C, "", res("0", `{"tools":[]}`)) // dropped from limbo
	f.frame(capture.S2C, "", res("1", `{"tools":[]}`))
	if len(late) != 1 || late[0] != "1" {
		t.Errorf("late completions %q, want [1]", late)
	}
	if got := held(f.s); got["calls"] != maxLimbo-1 {
		t.Errorf("holds %d calls, want the %d still in limbo", got["calls"], maxLimbo-1)
	}
}
