package jsonexport

import (
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// TestHTTPFrames: a frame with an HTTP envelope shows it as an http
// object (headers sorted, escaped); a status frame is kind http-status
// and has no payload member unless its body had text.
func TestHTTPFrames(t *testing.T) {
	t.Parallel()
	frames := []store.Frame{
		{Seq: 1, Time: t0, Dir: capture.C2S, Kind: store.KindRequest, ID: wire.IntID(1), Method: "tools/call", Size: 20, Call: 0,
			Record: &capture.Record{Msg: jsontext.Value(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`),
				HTTP: &capture.HTTP{Exchange: "x1", Method: "POST", Path: "/mcp",
					Headers: map[string]string{"Mcp-Method": "tools/call", "Authorization": "Bearer [present]", "Mcp-Param-Q": `a"b`}}}},
		{Seq: 2, Time: t0.Add(time.Millisecond), Dir: capture.S2C, Kind: store.KindHTTPStatus, Call: 0,
			Record: &capture.Record{HTTP: &capture.HTTP{Exchange: "x1", Method: "POST", Path: "/mcp", Status: 401,
				Headers: map[string]string{"WWW-Authenticate": `Bearer realm="x"`}}}},
		{Seq: 3, Time: t0.Add(2 * time.Millisecond), Dir: capture.S2C, Kind: store.KindHTTPStatus, Size: 9, Call: -1,
			Record: &capture.Record{Text: "Forbidden", HTTP: &capture.HTTP{Exchange: "x2", Method: "POST", Path: "/mcp", Status: 403}}},
	}
	out := render(t, frames, &store.Snapshot{}, nil)
	var doc struct {
		Frames []map[string]any `json:"frames"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := []map[string]any{
		{"seq": 1.0, "time": "2026-07-28T09:00:00Z", "dir": "c2s", "kind": "request", "id": 1.0, "method": "tools/call", "size": 20.0, "call": 0.0,
			"http": map[string]any{"exchange": "x1", "method": "POST", "path": "/mcp",
				"headers": map[string]any{"Authorization": "Bearer [present]", "Mcp-Method": "tools/call", "Mcp-Param-Q": `a"b`}},
			"msg": map[string]any{"jsonrpc": "2.0", "id": 1.0, "method": "tools/call"}},
		{"seq": 2.0, "time": "2026-07-28T09:00:00.001Z", "dir": "s2c", "kind": "http-status", "size": 0.0, "call": 0.0,
			"http": map[string]any{"exchange": "x1", "method": "POST", "path": "/mcp", "status": 401.0,
				"headers": map[string]any{"WWW-Authenticate": `Bearer realm="x"`}}},
		{"seq": 3.0, "time": "2026-07-28T09:00:00.002Z", "dir": "s2c", "kind": "http-status", "size": 9.0, "text": "Forbidden",
			"http": map[string]any{"exchange": "x2", "method": "POST", "path": "/mcp", "status": 403.0}},
	}
	if diff := cmp.Diff(want, doc.Frames); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}
