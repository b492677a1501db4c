package replay

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// judgeCapture is a 2026-07-28 capture of a discover, then (when list is
// not "") a tools/list answered with list, then a call of wipe and one of
// search.
func judgeCapture(list string) string {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":7}`
	lines := []string{
		`{"type":"session","time":"2026-07-28T09:30:00Z","format":1,"session_id":"d4","transport":"stdio"}`,
		`{"type":"frame","seq":1,"time":"2026-07-28T09:30:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}}`,
		`{"type":"frame","seq":2,"time":"2026-07-28T09:30:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}}`,
	}
	if list != "" {
		lines = append(lines,
			`{"type":"frame","seq":3,"time":"2026-07-28T09:30:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+meta+`}}}`,
			`{"type":"frame","seq":4,"time":"2026-07-28T09:30:00.004Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":`+list+`}}}`)
	}
	lines = append(lines,
		`{"type":"frame","seq":5,"time":"2026-07-28T09:30:00.005Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wipe",`+meta+`}}}`,
		`{"type":"frame","seq":6,"time":"2026-07-28T09:30:00.006Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}`,
		`{"type":"frame","seq":7,"time":"2026-07-28T09:30:00.007Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search",`+meta+`}}}`,
		`{"type":"frame","seq":8,"time":"2026-07-28T09:30:00.008Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":4,"result":{"content":[]}}}`)
	return strings.Join(lines, "\n") + "\n"
}

// listServer answers a tools/list with the page its cursor names (pages
// by cursor, "" the first), or an error for an unknown cursor or when
// pages is nil; every other request with an empty result. A tools/call of
// notify is also followed by notifications/tools/list_changed.
func listServer(pages map[string]string) func(f *wire.Frame) []string {
	return func(f *wire.Frame) []string {
		if f.Kind != wire.KindRequest {
			return nil
		}
		id := f.ID.Raw()
		if f.Method != "tools/list" {
			return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[]}}`}
		}
		cursor, _ := jsonraw.String(jsonraw.Member(f.Params, "cursor"))
		page, ok := pages[cursor]
		if !ok {
			return []string{`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"bad cursor"}}`}
		}
		return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":` + page + `}`}
	}
}

// TestDriveJudgesTools: without AllowDestructive a tools/call is sent only
// when its tool is read-only or destructiveHint: false, by the server's
// own tools/list when it lists the tool (asked for by the replay itself,
// every page, when the recording did not list or the listing has more
// pages), else by the capture's; a tool nobody lists is destructive.
func TestDriveJudgesTools(t *testing.T) {
	t.Parallel()
	for _, tc := range judgeCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := NewPlan(load(t, judgeCapture(tc.recorded)), &PlanOptions{AllowDestructive: tc.allow})
			if err != nil {
				t.Fatal(err)
			}
			res, seen, err := drivePlan(t, p, 5*time.Second, listServer(tc.pages))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.sent, sentView(seen[1:])); diff != "" {
				t.Errorf("what the server read after the discover (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.skipped, res.Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			own := 0
			for _, f := range seen {
				if f.Method == "tools/list" && jsonraw.Member(f.Params, "_meta") != nil && !strings.Contains(string(f.Params), "progressToken") {
					own++
				}
			}
			if own != len(res.lists) {
				t.Errorf("%d tools/list requests of the replay's own, %d ids kept", own, len(res.lists))
			}
		})
	}
}

// judgeCase is one case of TestDriveJudgesTools.
type judgeCase struct {
	name     string
	recorded string            // the capture's tools array; "" for no tools/list
	pages    map[string]string // the server's pages; nil answers tools/list with an error
	allow    bool
	sent     []string // what the server read, but the discover
	skipped  []Skipped
}

func judgeCases() []judgeCase {
	const (
		ro    = `{"name":"search","annotations":{"readOnlyHint":true}}`
		bare  = `{"name":"wipe"}`
		destr = `{"name":"wipe","annotations":{"destructiveHint":true}}`
		safe  = `{"name":"wipe","annotations":{"destructiveHint":false}}`
	)
	return []judgeCase{{
		name:     "the server annotates what the recording did not",
		recorded: `[` + bare + `,` + ro + `]`,
		pages:    map[string]string{"": `{"tools":[` + destr + `,` + ro + `]}`},
		sent:     []string{"tools/list", "tools/call search"},
		skipped:  []Skipped{{Call: 2, Method: "tools/call", Target: "wipe", Hint: mcp.DestructiveDeclared, From: FromServer}},
	}, {
		name:    "no recorded tools/list: the replay asks the server",
		pages:   map[string]string{"": `{"tools":[` + destr + `,` + ro + `]}`},
		sent:    []string{"tools/list {_meta}", "tools/call search"},
		skipped: []Skipped{{Call: 1, Method: "tools/call", Target: "wipe", Hint: mcp.DestructiveDeclared, From: FromServer}},
	}, {
		name:     "the server's word over the recording's, both ways",
		recorded: `[` + destr + `,{"name":"search"}]`,
		pages:    map[string]string{"": `{"tools":[` + safe + `,{"name":"search"}]}`},
		sent:     []string{"tools/list", "tools/call wipe"},
		skipped:  []Skipped{{Call: 3, Method: "tools/call", Target: "search", Hint: mcp.DestructiveByDefault, From: FromServer}},
	}, {
		name:  "every page is asked for",
		pages: map[string]string{"": `{"tools":[{"name":"other","annotations":{"readOnlyHint":true}}],"nextCursor":"p2"}`, "p2": `{"tools":[` + safe + `],"nextCursor":"p3"}`, "p3": `{"tools":[` + ro + `]}`},
		sent:  []string{"tools/list {_meta}", "tools/list {cursor,_meta}", "tools/call wipe", "tools/list {cursor,_meta}", "tools/call search"},
	}, {
		name:     "a recorded first page, the rest asked for",
		recorded: `[` + safe + `,` + ro + `]`,
		pages:    map[string]string{"": `{"tools":[` + safe + `],"nextCursor":"p2"}`, "p2": `{"tools":[{"name":"search","annotations":{"destructiveHint":false,"destructiveHint":true}}]}`},
		sent:     []string{"tools/list", "tools/call wipe", "tools/list {cursor,_meta}"},
		skipped:  []Skipped{{Call: 3, Method: "tools/call", Target: "search", Hint: mcp.DestructiveDeclared, From: FromServer}},
	}, {
		name:     "a tool the server no longer lists: the recording decides",
		recorded: `[` + safe + `,{"name":"search"}]`,
		pages:    map[string]string{"": `{"tools":[]}`},
		sent:     []string{"tools/list", "tools/call wipe"},
		skipped:  []Skipped{{Call: 3, Method: "tools/call", Target: "search", Hint: mcp.DestructiveByDefault, From: FromCapture, Unlisted: true}},
	}, {
		name:    "a tool nobody lists",
		pages:   map[string]string{"": `{"tools":[]}`},
		sent:    []string{"tools/list {_meta}"},
		skipped: []Skipped{{Call: 1, Method: "tools/call", Target: "wipe", Hint: mcp.DestructiveByDefault, From: FromNobody, Unlisted: true}, {Call: 2, Method: "tools/call", Target: "search", Hint: mcp.DestructiveByDefault, From: FromNobody, Unlisted: true}},
	}, {
		name:     "a server that will not list: the recording, read last-wins",
		recorded: `[{"name":"wipe","annotations":{"destructiveHint":false,"destructiveHint":true}},{"name":"search","annotations":{"readOnlyHint":false,"readOnlyHint":true}}]`,
		sent:     []string{"tools/list", "tools/list {_meta}", "tools/call search"},
		skipped:  []Skipped{{Call: 2, Method: "tools/call", Target: "wipe", Hint: mcp.DestructiveDeclared, From: FromCapture}},
	}, {
		name:  "--allow-destructive asks nothing and sends everything",
		allow: true,
		sent:  []string{"tools/call wipe", "tools/call search"},
	}}
}

// sentView names each request the server read: a tools/list the replay
// sent of its own (without the recorded progressToken) with its params'
// member names.
func sentView(seen []wire.Frame) []string {
	var out []string
	for _, f := range seen {
		switch {
		case f.Method == "tools/list" && !strings.Contains(string(f.Params), "progressToken"):
			var names []string
			jsonraw.EachMember(f.Params, func(n, _ []byte) bool {
				s, _ := jsonraw.String(n)
				names = append(names, s)
				return true
			})
			out = append(out, fmt.Sprintf("tools/list {%s}", strings.Join(names, ",")))
		case f.Kind == wire.KindRequest:
			out = append(out, describe(f.Method, targetOf(f)))
		}
	}
	return out
}

func targetOf(f wire.Frame) string {
	s, _ := jsonraw.String(jsonraw.Member(f.Params, "name"))
	return s
}

// TestDriveToolsListChanged: after notifications/tools/list_changed the
// server's earlier listing no longer counts; the replay lists again.
func TestDriveToolsListChanged(t *testing.T) {
	t.Parallel()
	p, err := NewPlan(load(t, judgeCapture(`[{"name":"wipe","annotations":{"readOnlyHint":true}},{"name":"search","annotations":{"readOnlyHint":true}}]`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	lists := 0
	answer := func(f *wire.Frame) []string {
		id := f.ID.Raw()
		switch f.Method {
		case "tools/list":
			lists++
			if lists == 1 {
				return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[{"name":"wipe","annotations":{"readOnlyHint":true}},{"name":"search","annotations":{"readOnlyHint":true}}]}}`}
			}
			return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{"tools":[{"name":"search","annotations":{"destructiveHint":true}}]}}`}
		case "tools/call":
			return []string{`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[]}}`}
		}
		return []string{`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`}
	}
	res, seen, err := drivePlan(t, p, 5*time.Second, answer)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"tools/list", "tools/call wipe", "tools/list {_meta}"}
	if diff := cmp.Diff(want, sentView(seen[1:])); diff != "" {
		t.Errorf("what the server read after the discover (-want +got):\n%s", diff)
	}
	wantS := []Skipped{{Call: 3, Method: "tools/call", Target: "search", Hint: mcp.DestructiveDeclared, From: FromServer}}
	if diff := cmp.Diff(wantS, res.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// TestSkippedText: each skip says whose listing judged the tool and how,
// and how to send it anyway.
func TestSkippedText(t *testing.T) {
	t.Parallel()
	res := &Result{Skipped: []Skipped{
		{Call: 2, Method: "tools/call", Target: "wipe", Hint: mcp.DestructiveDeclared, From: FromServer},
		{Call: 3, Method: "tools/call", Target: "search", Hint: mcp.DestructiveByDefault, From: FromServer},
		{Call: 4, Method: "tools/call", Target: "gone", Hint: mcp.DestructiveDeclared, From: FromCapture, Unlisted: true},
		{Call: 5, Method: "tools/call", Target: "x\x1b[2J", Hint: mcp.DestructiveByDefault, From: FromNobody, Unlisted: true},
	}}
	var b strings.Builder
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	const tail = " (pass --allow-destructive to send it)\n"
	want := "skipped call 2 tools/call wipe: the server's tools/list annotates the tool destructiveHint: true" + tail +
		"skipped call 3 tools/call search: the server's tools/list gives the tool no readOnlyHint: true or destructiveHint: false, so MCP assumes it destructive" + tail +
		"skipped call 4 tools/call gone: the server's tools/list does not list the tool, and the capture's annotates the tool destructiveHint: true" + tail +
		"skipped call 5 tools/call x\\x1b[2J: neither the server's tools/list nor the capture's lists the tool, so MCP assumes it destructive" + tail
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("WriteText (-want +got):\n%s", diff)
	}
}
