package source

import (
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestHubErrorsLeaveOutNegotiation: the hub's error count leaves out a
// server/discover the server refused and the client followed with
// initialize (era negotiation), and counts a call that failed. Its call
// count is what the client asked, as sessions counts: a server's
// roots/list is not a call.
func TestHubErrorsLeaveOutNegotiation(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	frames := []struct {
		dir capture.Dir
		msg string
	}{
		{capture.C2S, `{"jsonrpc":"2.0","id":"p","method":"server/discover","params":{}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":"p","error":{"code":-32601,"message":"Method not found"}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":"r1","method":"roots/list"}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":"r1","result":{"roots":[]}}`},
	}
	st := store.New(nil)
	st.Ingest(&capture.Record{Type: capture.TypeSession, Time: t0, Format: capture.FormatVersion, SessionID: "s", Transport: "stdio"})
	for i, f := range frames {
		st.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond),
			Dir: f.dir, Size: len(f.msg), Msg: jsontext.Value(f.msg)})
	}
	snap := st.Final()
	info := summarize("x.jsonl", snap, &activity{}, t0, false)
	if info.Errors != 1 {
		t.Errorf("hub errors = %d, want 1 (the tools/list, not the refused probe)", info.Errors)
	}
	if info.Calls != 3 {
		t.Errorf("hub calls = %d, want 3 (server/discover, initialize, tools/list; not the server's roots/list)", info.Calls)
	}
}
