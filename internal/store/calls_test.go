package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// scenario is a scripted session and what the store must make of it.
type scenario struct {
	name     string
	steps    []step
	calls    []string
	ops      []string
	findings []string
}

func runScenarios(t *testing.T, tests []scenario) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			snap := load(t, tt.steps)
			if diff := cmp.Diff(tt.calls, callLines(snap.Calls.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.ops, opLines(snap.Operations.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("operations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.findings, findingLines(snap.Findings.Slice()), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			checkConsistent(t, snap)
		})
	}
}

func TestCalls(t *testing.T) {
	t.Parallel()
	runScenarios(t, []scenario{{
		name:  "request and result",
		steps: []step{c2s(0, req("1", "tools/list", "")), s2c(5, res("1", `{"tools":[]}`))},
		calls: []string{"c2s 1 tools/list ok"},
		ops:   []string{},
	}, {
		name: "1 and \"1\" are different ids",
		steps: []step{
			c2s(0, req("1", "tools/list", "")),
			c2s(0, req(`"1"`, "prompts/list", "")),
			s2c(5, res(`"1"`, `{}`)),
			s2c(5, res("1", `{}`)),
		},
		calls: []string{"c2s 1 tools/list ok", `c2s "1" prompts/list ok`},
		ops:   []string{},
	}, {
		name: "each direction has its own id space",
		steps: []step{
			c2s(0, req("0", "tools/call", `{"name":"t"}`)),
			s2c(1, req("0", "ping", "")),
			c2s(1, res("0", `{}`)),
			s2c(1, res("0", `{"content":[]}`)),
		},
		calls: []string{"c2s 0 tools/call[t] ok", "s2c 0 ping ok legacy parent=0(single-in-flight)"},
		ops:   []string{},
	}, {
		name:     "null id request is not a call",
		steps:    []step{c2s(0, req("null", "tools/list", "")), s2c(1, errRes("null", -32600, "invalid"))},
		calls:    []string{},
		ops:      []string{},
		findings: []string{"null-id@1"},
	}, {
		name: "id reused in flight: the new request takes the id, the old stays pending",
		steps: []step{
			c2s(0, req("7", "tools/list", "")),
			c2s(1, req("7", "prompts/list", "")),
			s2c(1, res("7", `{}`)),
			endRec(),
		},
		calls:    []string{"c2s 7 tools/list pending", "c2s 7 prompts/list ok"},
		ops:      []string{},
		findings: []string{"unanswered-request@1", "id-reused-in-flight@2"},
	}, {
		name:     "reusing an answered id is fine",
		steps:    []step{c2s(0, req("7", "a", "")), s2c(1, res("7", `{}`)), c2s(1, req("7", "b", "")), s2c(1, res("7", `{}`))},
		calls:    []string{"c2s 7 a ok", "c2s 7 b ok"},
		ops:      []string{},
		findings: []string{},
	}, {
		name:     "response without request",
		steps:    []step{s2c(0, res("9", `{}`)), s2c(0, errRes("10", -1, "x"))},
		calls:    []string{},
		ops:      []string{},
		findings: []string{"response-without-request@1", "response-without-request@2"},
	}, {
		name:     "duplicate response",
		steps:    []step{c2s(0, req("1", "a", "")), s2c(1, res("1", `{}`)), s2c(1, errRes("1", -32603, "again"))},
		calls:    []string{"c2s 1 a ok"},
		ops:      []string{},
		findings: []string{"duplicate-response@3"},
	}, {
		name: "cancel then late result",
		steps: []step{
			c2s(0, req("1", "tools/call", `{"name":"slow"}`)),
			c2s(10, notif("notifications/cancelled", `{"requestId":1,"reason":"user"}`)),
			s2c(10, res("1", `{"content":[]}`)),
		},
		calls:    []string{"c2s 1 tools/call[slow] ok late cancel@2"},
		ops:      []string{},
		findings: []string{"late-result@3"},
	}, {
		name: "cancelled and never answered is not unanswered",
		steps: []step{
			c2s(0, req(`"a"`, "tools/call", `{"name":"slow"}`)),
			c2s(10, notif("notifications/cancelled", `{"requestId":"a"}`)),
			endRec(),
		},
		calls:    []string{`c2s "a" tools/call[slow] cancelled cancel@2`},
		ops:      []string{},
		findings: []string{},
	}, {
		name: "cancel of an unknown, answered or other-direction request",
		steps: []step{
			c2s(0, req("1", "a", "")),
			s2c(1, res("1", `{}`)),
			c2s(1, notif("notifications/cancelled", `{"requestId":1}`)),
			c2s(1, notif("notifications/cancelled", `{"requestId":"1"}`)),
			s2c(1, notif("notifications/cancelled", `{"requestId":1}`)),
			c2s(1, notif("notifications/cancelled", `{}`)),
		},
		calls:    []string{"c2s 1 a ok"},
		ops:      []string{},
		findings: []string{"cancel-unknown-request@3", "cancel-unknown-request@4", "cancel-unknown-request@5", "cancel-unknown-request@6"},
	}, {
		name: "invalid frames, and the parse error that answers one",
		steps: []step{
			c2s(0, "this is not json"),
			s2c(1, errRes("null", -32700, "parse error")),
			c2s(1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"\xff}"),
			c2s(1, `{"jsonrpc":"2.0","id":1.5,"method":"x"}`),
			c2s(1, `[]`),
			s2c(1, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"no id"}}`),
			s2c(1, errRes("null", -32700, "parse error")),
			s2c(1, errRes("null", -32700, "parse error")),
			s2c(1, errRes("null", -32700, "one too many")),
		},
		calls:    []string{},
		ops:      []string{},
		findings: []string{"invalid-frame@1", "invalid-frame@3", "invalid-frame@4", "batch-frame@5", "response-without-request@9"},
	}, {
		name: "batch elements are still correlated",
		steps: []step{
			c2s(0, `[`+req("1", "a", "")+`,`+notif("notifications/progress", `{}`)+`,5]`),
			s2c(1, `[`+res("1", `{}`)+`]`),
		},
		calls:    []string{"c2s 1 a ok"},
		ops:      []string{},
		findings: []string{"batch-frame@1", "invalid-frame@1", "batch-frame@2"},
	}, {
		name:     "non-conforming frames are still correlated",
		steps:    []step{c2s(0, `{"jsonrpc":"1.0","id":1,"method":"a"}`), s2c(1, `{"id":1,"result":{}}`)},
		calls:    []string{"c2s 1 a ok"},
		ops:      []string{},
		findings: []string{"non-conforming-frame@1", "non-conforming-frame@2"},
	}, {
		name: "statuses",
		steps: []step{
			c2s(0, req("1", "tools/call", `{"name":"a"}`)),
			s2c(1, res("1", `{"content":[],"isError":true}`)),
			c2s(0, req("2", "tools/call", `{"name":"b"}`)),
			s2c(1, errRes("2", -32602, "unknown tool")),
			c2s(0, req("3", "tools/call", `{"name":"c"}`)),
			s2c(1, res("3", `{"content":[],"isError":false}`)),
		},
		calls: []string{"c2s 1 tools/call[a] tool-error", "c2s 2 tools/call[b] error", "c2s 3 tools/call[c] ok"},
		ops:   []string{},
	}})
}

func TestCallDetails(t *testing.T) {
	t.Parallel()
	snap := load(t, []step{
		c2s(0, req("1", "resources/read", `{"uri":"file:///a"}`)),
		s2c(12, errRes("1", -32602, "resource not found")),
		c2s(3, req("2", "tools/call", `{"name":"t"}`)),
	})
	want := []Call{{
		Index: 0, Dir: capture.C2S, ID: snap.Calls.Slice()[0].ID, Method: "resources/read", Target: "file:///a",
		RequestSeq: 1, ResponseSeq: 2, Start: t0, End: t0.Add(12e6), DurationMS: 12,
		Status: StatusError, Error: &CallError{Code: -32602, Message: "resource not found"},
		Operation: -1, Parent: -1,
	}, {
		Index: 1, Dir: capture.C2S, ID: snap.Calls.Slice()[1].ID, Method: "tools/call", Target: "t",
		RequestSeq: 3, Start: t0.Add(15e6), Status: StatusPending, Operation: -1, Parent: -1,
	}}
	if diff := cmp.Diff(want, snap.Calls.Slice(), cmp.AllowUnexported(snap.Calls.Slice()[0].ID)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if got := snap.Calls.Slice()[0].ID.Raw(); got != "1" {
		t.Errorf("id = %s, want 1", got)
	}
}

func TestOnFrame(t *testing.T) {
	t.Parallel()
	type seen struct {
		Seq  uint64
		Kind string
		Call int
	}
	var got []seen
	data := captureOf(t, []step{
		c2s(0, req("1", "a", "")),
		s2c(1, notif("notifications/progress", `{}`)),
		c2s(1, req("2", "b", "")),
		c2s(1, notif("notifications/cancelled", `{"requestId":2}`)),
		s2c(1, res("1", `{}`)),
		s2c(1, "garbage"),
	})
	loadBytes(t, data, &Options{OnFrame: func(f *Frame) {
		if f.Record == nil || f.Record.Seq != f.Seq {
			t.Errorf("frame %d: record not passed", f.Seq)
		}
		got = append(got, seen{f.Seq, f.Kind.String(), f.Call})
	}})
	want := []seen{{1, "request", 0}, {2, "notification", -1}, {3, "request", 1}, {4, "notification", 1}, {5, "response", 0}, {6, "invalid", -1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OnFrame (-want +got):\n%s", diff)
	}
}
