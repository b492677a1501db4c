package mcpserve

import (
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestSummarySlowestTask: session_summary's slowest list holds a task
// (ext-tasks) once, with its whole duration and final status, and not
// while it still runs, whatever its answered polls.
func TestSummarySlowestTask(t *testing.T) {
	t.Parallel()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	frames := func(last string) []string {
		return []string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report","arguments":{},` + meta + `}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","taskId":"t1","status":"working","ttlMs":null}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t1",` + meta + `}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","taskId":"t1","ttlMs":null,` + last + `}}`,
		}
	}
	for _, tt := range []struct {
		name, last string
		want       []callRow
	}{
		{"running", `"status":"working"`, []callRow{}},
		{"failed", `"status":"failed","error":{"code":-32603,"message":"m"}`,
			[]callRow{{Call: 0, Dir: "c2s", Method: "tools/call", Target: "report", Status: store.StatusError, Answered: true, DurationMS: 30}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := store.New(nil)
			at := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
			s.Ingest(&capture.Record{Type: capture.TypeSession, Format: capture.FormatVersion, SessionID: "s", Transport: "stdio", Time: at})
			for i, m := range frames(tt.last) {
				dir := capture.C2S
				if i%2 == 1 {
					dir = capture.S2C
				}
				at = at.Add(10 * time.Millisecond)
				s.Ingest(&capture.Record{Type: capture.TypeFrame, Seq: uint64(i + 1), Dir: dir, Time: at, Msg: jsontext.Value(m)})
			}
			got := summarize(s.Snapshot()).Slowest
			if len(got) != len(tt.want) || (len(got) == 1 && (got[0].Status != tt.want[0].Status || got[0].DurationMS != tt.want[0].DurationMS || got[0].Call != 0)) {
				t.Errorf("slowest %+v, want %+v", got, tt.want)
			}
		})
	}
}
