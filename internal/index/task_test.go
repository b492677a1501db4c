package index

import (
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestTaskCallGroups: a task (ext-tasks) counts as one call of its tool,
// with a duration only once it was seen terminal; polls answered while it
// runs do not make it answered.
func TestTaskCallGroups(t *testing.T) {
	t.Parallel()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	task := func(status, extra string) string {
		return `{"taskId":"t1","status":"` + status + `","ttlMs":null` + extra + `}`
	}
	for _, tt := range []struct {
		name      string
		last      string
		durations int
	}{
		{"running", task("working", ""), 0},
		{"completed", task("completed", `,"result":{"content":[]}`), 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := store.New(nil)
			at := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
			s.Ingest(&capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: "s", Transport: "stdio", Time: at})
			for i, m := range []struct {
				dir capture.Dir
				msg string
			}{
				{capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","arguments":{},` + meta + `}}`},
				{capture.S2C, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"task",` + task("working", "")[1:] + `}`},
				{capture.C2S, `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1",` + meta + `}}`},
				{capture.S2C, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete",` + tt.last[1:] + `}`},
			} {
				at = at.Add(10 * time.Millisecond)
				s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Dir: m.dir, Time: at, Msg: jsontext.Value(m.msg)})
			}
			var got *CallGroup
			groups := callGroups(s.Snapshot())
			for i := range groups {
				if groups[i].Method == "tools/call" {
					got = &groups[i]
				}
			}
			if got == nil || got.Calls != 1 || len(got.DurationsMS) != tt.durations {
				t.Errorf("tools/call group %+v, want 1 call with %d durations", got, tt.durations)
			}
		})
	}
}
