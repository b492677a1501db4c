package events

import (
	"strconv"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// TestFeedRootsShared checks what a Feed keeps per open call for its
// event: requests of one shape share one copy of it (a million open calls
// each held their own, in a 64-byte buffer, beside an 80-byte record), the
// trace context is kept only for a request that has one, the events still
// carry both, and what an event kept is gone once it is out.
func TestFeedRootsShared(t *testing.T) {
	t.Parallel()
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	var got []string
	f := NewFeed(false, func(e *Event) { got = append(got, string(e.Parameters)+" "+e.TraceParent) })
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	seq := uint64(0)
	frame := func(dir capture.Dir, msg string) {
		seq++
		f.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: dir, Time: at, Msg: jsontext.Value(msg)})
	}
	f.Ingest(&capture.Record{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "stdio", Time: at})
	frame(capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"q":"a"}}}`)
	frame(capture.C2S, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"q":"zz"}}}`)
	frame(capture.C2S, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"q":"b"},"_meta":{"traceparent":"`+tp+`"}}}`)
	d := &f.d
	p1, p2 := d.roots[0], d.roots[1]
	if len(p1) == 0 || &p1[0] != &p2[0] {
		t.Errorf("params shapes %s and %s are not shared", p1, p2)
	}
	if cap(p1) != len(p1) {
		t.Errorf("shape kept in a %d-byte buffer for %d bytes", cap(p1), len(p1))
	}
	if len(d.rootMeta) != 1 {
		t.Errorf("trace context kept for %d requests, want 1", len(d.rootMeta))
	}
	shape := string(p1)
	frame(capture.S2C, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	frame(capture.S2C, `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`)
	if len(got) != 2 || got[0] != shape+" " || got[1] != shape+" "+tp {
		t.Errorf("events carried %q", got)
	}
	if _, ok := d.roots[0]; ok {
		t.Error("call 1's request is still kept after its event")
	}
	if len(d.rootMeta) != 0 {
		t.Error("call 3's trace context is still kept after its event")
	}
}

// TestFeedHoldsOpenCalls feeds 10,000 answered calls and 10,000 calls
// cancelled and never answered: every answered call has its event, and
// what the Feed keeps for events to come follows what its store still
// holds (the newest cancelled calls, which a late answer may complete),
// not the 20,000 calls seen.
func TestFeedHoldsOpenCalls(t *testing.T) {
	t.Parallel()
	const n = 10_000
	events := 0
	f := NewFeed(false, func(*Event) { events++ })
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	seq := uint64(0)
	frame := func(dir capture.Dir, msg string) {
		seq++
		f.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: seq, Dir: dir, Time: at, Msg: jsontext.Value(msg)})
	}
	f.Ingest(&capture.Record{Type: capture.TypeSession, Format: 1, SessionID: "s", Transport: "stdio", Time: at})
	for i := range n {
		id := strconv.Itoa(2 * i)
		frame(capture.C2S, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"t","arguments":{}}}`)
		frame(capture.S2C, `{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[]}}`)
		c := strconv.Itoa(2*i + 1)
		frame(capture.C2S, `{"jsonrpc":"2.0","id":`+c+`,"method":"tools/call","params":{"name":"t","arguments":{}}}`)
		frame(capture.C2S, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+c+`}}`)
	}
	if events != n {
		t.Errorf("%d events, want %d", events, n)
	}
	if k := len(f.d.roots) + len(f.d.rootMeta); k > 4*minSweep {
		t.Errorf("the Feed keeps the requests of %d calls after %d calls", k, 2*n)
	}
}
