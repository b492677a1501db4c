package store

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// feedLines loads steps with an OnChange that renders each change with the
// state it points to at that moment.
func feedLines(t *testing.T, steps []step) ([]string, *Snapshot) {
	t.Helper()
	var got []string
	snap := loadBytes(t, captureOf(t, steps), &Options{OnChange: func(ch *Change) {
		line := fmt.Sprintf("%s seq=%d call=%d op=%d row=%d", ch.Kind, ch.Seq, ch.Call, ch.Operation, ch.Row)
		if ch.Record == nil || ch.Record.Seq != ch.Seq && ch.Kind != ChangeFinding {
			t.Errorf("%s: record %+v", line, ch.Record)
		}
		if c := ch.CallAt(ch.Call); c != nil {
			line += " " + c.Status
		}
		if op := ch.OperationAt(ch.Operation); op != nil {
			line += fmt.Sprintf(" rounds=%d", len(op.Rounds))
		}
		if r := ch.RowAt(ch.Row); r != nil {
			line += " row:" + r.Status
		}
		switch ch.Kind {
		case ChangeCapability:
			line += fmt.Sprintf(" side=%s client=%q server=%q", ch.Side, ch.Client().Name, ch.Server().Name)
		case ChangeFinding:
			line += " " + ch.Finding.Rule
		case ChangeCallOpened:
			line += fmt.Sprintf(" retry=%v", ch.Request.IsRetry())
		}
		got = append(got, line)
	}})
	return got, snap
}

// TestChangeFeed checks the change feed reports every kind of change, once,
// in the order it happened, pointing at the state as it is then.
func TestChangeFeed(t *testing.T) {
	t.Parallel()
	retry := tool("2", "t", `{}`, `,"inputResponses":{"k":{"action":"accept","content":{"a":1}}},"requestState":"st"`)
	for _, tc := range []struct {
		name  string
		steps []step
		want  []string
	}{
		{"mrtr", []step{
			c2s(0, tool("1", "t", `{}`, "")),
			s2c(5, inputRequired("1", elicit("k"), "st")),
			c2s(5, retry),
			s2c(5, done("2")),
		}, []string{
			"call-opened seq=1 call=0 op=-1 row=-1 pending retry=false",
			`capability seq=1 call=0 op=-1 row=-1 pending side=c2s client="" server=""`,
			"call-answered seq=2 call=0 op=-1 row=-1 input-required",
			"operation-round seq=2 call=0 op=0 row=-1 input-required rounds=1",
			"row-asked seq=2 call=0 op=0 row=0 input-required rounds=1 row:pending",
			"call-opened seq=3 call=1 op=-1 row=-1 pending retry=true",
			"operation-round seq=3 call=1 op=0 row=-1 pending rounds=2",
			"row-answered seq=3 call=0 op=0 row=0 input-required rounds=2 row:answered",
			"call-answered seq=4 call=1 op=0 row=-1 ok rounds=2",
			"operation-completed seq=4 call=1 op=0 row=-1 ok rounds=2",
		}},
		{"cancel-late", []step{
			c2s(0, req("1", "tools/call", `{"name":"x"}`)),
			c2s(5, notif("notifications/cancelled", `{"requestId":1}`)),
			s2c(5, res("1", `{"content":[]}`)),
		}, []string{
			"call-opened seq=1 call=0 op=-1 row=-1 pending retry=false",
			"call-cancelled seq=2 call=0 op=-1 row=-1 cancelled",
			"call-answered seq=3 call=0 op=-1 row=-1 ok",
			"call-late seq=3 call=0 op=-1 row=-1 ok",
			"finding seq=3 call=0 op=-1 row=-1 ok late-result",
			"operation-completed seq=3 call=0 op=-1 row=-1 ok",
		}},
		{"legacy", []step{
			c2s(0, req("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}`)),
			s2c(5, res("1", `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"2"}}`)),
			c2s(5, req("2", "tools/call", `{"name":"x"}`)),
			s2c(5, req("9", "elicitation/create", `{"message":"?","requestedSchema":{"type":"object","properties":{}}}`)),
			c2s(5, res("9", `{"action":"decline"}`)),
			s2c(5, res("2", `{"content":[]}`)),
		}, []string{
			"call-opened seq=1 call=0 op=-1 row=-1 pending retry=false",
			`capability seq=1 call=0 op=-1 row=-1 pending side=c2s client="c" server=""`,
			"call-answered seq=2 call=0 op=-1 row=-1 ok",
			`capability seq=2 call=0 op=-1 row=-1 ok side=s2c client="c" server="s"`,
			"operation-completed seq=2 call=0 op=-1 row=-1 ok",
			"call-opened seq=3 call=1 op=-1 row=-1 pending retry=false",
			"call-opened seq=4 call=2 op=-1 row=-1 pending retry=false",
			"row-asked seq=4 call=2 op=-1 row=0 pending row:pending",
			"call-answered seq=5 call=2 op=-1 row=-1 ok",
			"row-answered seq=5 call=2 op=-1 row=0 ok row:answered",
			"call-answered seq=6 call=1 op=-1 row=-1 ok",
			"operation-completed seq=6 call=1 op=-1 row=-1 ok",
		}},
		{"findings", []step{
			c2s(0, "not json"),
			c2s(1, req("1", "ping", "")),
			s2c(1, res("1", `{}`)),
			s2c(1, res("1", `{}`)),
		}, []string{
			"finding seq=1 call=-1 op=-1 row=-1 invalid-frame",
			"call-opened seq=2 call=0 op=-1 row=-1 pending retry=false",
			"call-answered seq=3 call=0 op=-1 row=-1 ok",
			"operation-completed seq=3 call=0 op=-1 row=-1 ok",
			"finding seq=4 call=0 op=-1 row=-1 ok duplicate-response",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, snap := feedLines(t, tc.steps)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("change feed (-want +got):\n%s", diff)
			}
			// Every finding raised while ingesting is on the feed.
			n := 0
			for _, l := range got {
				if len(l) > 7 && l[:7] == "finding" {
					n++
				}
			}
			if n != snap.Findings.Len() {
				t.Errorf("%d findings on the feed, %d in the snapshot", n, snap.Findings.Len())
			}
		})
	}
}
