package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/diff"
	"github.com/mcptrail/mcptrail/internal/store"
)

// orderSession is a session of one order call whose result holds an id,
// a time and a total.
func orderSession(t *testing.T, id, at string, total int) *store.Snapshot {
	t.Helper()
	return load(t, fmt.Sprintf(`{"type":"session","time":"2026-07-28T09:30:00Z","format":1,"session_id":"s%s","transport":"stdio"}
{"type":"frame","seq":1,"time":"2026-07-28T09:30:00.001Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"order","arguments":{"n":1}}}}
{"type":"frame","seq":2,"time":"2026-07-28T09:30:00.002Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"order %s"}],"structuredContent":{"id":%q,"at":%q,"total":%d}}}}
{"type":"frame","seq":3,"time":"2026-07-28T09:30:00.003Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"price"}}}
{"type":"frame","seq":4,"time":"2026-07-28T09:30:00.004Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"total %d"}]}}}
`, id, id, id, at, total, total))
}

// TestQuiet: what differs between two runs of the same server (the id
// and the time) is noise; the recording compared with a run of the same
// server then differs in nothing, and with a changed server (another
// total) in the total only, both paths named.
func TestQuiet(t *testing.T) {
	t.Parallel()
	orig := orderSession(t, "a1", "09:30", 42)
	first := orderSession(t, "b2", "10:00", 42)
	second := orderSession(t, "c3", "10:01", 42)
	n, err := Learn(first, second, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range n.Paths {
		paths = append(paths, p.Method+"["+p.Target+"] "+p.Arguments+" "+p.Path)
	}
	want := []string{
		`tools/call[order] {"n":1} /content/0/text`,
		`tools/call[order] {"n":1} /structuredContent/id`,
		`tools/call[order] {"n":1} /structuredContent/at`,
	}
	if d := cmp.Diff(want, paths); d != "" {
		t.Errorf("noise paths (-want +got):\n%s", d)
	}
	for _, tc := range []struct {
		name    string
		got     *store.Snapshot
		changed []string // call: path
	}{
		{"same", first, nil},
		{"changed", orderSession(t, "d4", "10:02", 43), []string{"order /structuredContent/total", "price /content/0/text"}},
	} {
		rep, err := diff.Sessions(orig, tc.got, diff.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Differs() {
			t.Fatalf("%s: the report without noise removed differs in nothing", tc.name)
		}
		c := &Comparison{Report: rep}
		c.Quiet(n)
		var changed []string
		for _, d := range c.Report.Calls.Changed {
			for _, r := range d.Result {
				changed = append(changed, d.Target+" "+r.Path)
			}
		}
		if d := cmp.Diff(tc.changed, changed); d != "" {
			t.Errorf("%s: changed once quiet (-want +got):\n%s", tc.name, d)
		}
		if got := c.Report.Differs(); got != (tc.changed != nil) {
			t.Errorf("%s: Differs() = %v once quiet", tc.name, got)
		}
	}
	var b strings.Builder
	if err := n.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"tools/call[order] result /structuredContent/id", "tools/call[order] result /structuredContent/at"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("WriteText lacks %q:\n%s", w, b.String())
		}
	}
}

// TestQuietOtherCall: noise learned of one call (by its arguments) does
// not hide the same path of another call.
func TestQuietOtherCall(t *testing.T) {
	t.Parallel()
	n := &Noise{Paths: []NoisePath{{Method: "tools/call", Target: "order", Arguments: `{"n":1}`, Path: "/structuredContent/id"}}}
	rep := &diff.Report{Calls: diff.Calls{Changed: []diff.CallDelta{
		{CallRef: diff.CallRef{Method: "tools/call", Target: "order", Arguments: `{"n":2}`}, Result: []diff.Delta{{Path: "/structuredContent/id", Op: diff.OpChanged}}},
		{CallRef: diff.CallRef{Method: "tools/call", Target: "order", Arguments: `{"n":1}`}, Result: []diff.Delta{{Path: "/structuredContent/id/x", Op: diff.OpChanged}}},
	}}}
	c := &Comparison{Report: rep}
	c.Quiet(n)
	if len(rep.Calls.Changed) != 1 || rep.Calls.Changed[0].Arguments != `{"n":2}` {
		t.Errorf("changed once quiet: %+v, want only the call with n 2", rep.Calls.Changed)
	}
}

// TestNoEmptyNoise: a nil or empty Noise writes nothing and hides nothing.
func TestNoEmptyNoise(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := (*Noise)(nil).WriteText(&b); err != nil || b.Len() != 0 {
		t.Errorf("nil Noise wrote %q, %v", b.String(), err)
	}
	rep := &diff.Report{Findings: diff.Findings{New: []diff.FindingRef{{Rule: "r"}}}}
	c := &Comparison{Report: rep}
	c.Quiet(&Noise{})
	if !slices.Equal(rep.Findings.New, []diff.FindingRef{{Rule: "r"}}) {
		t.Errorf("an empty Noise removed a finding: %+v", rep.Findings.New)
	}
}

// TestNoiseMatched keeps only what both runs had: result paths and
// outcomes of matched calls, changed questions and definitions; a
// question or definition one run alone had, and every finding, go.
func TestNoiseMatched(t *testing.T) {
	n := &Noise{
		Paths:     []NoisePath{{Method: "tools/call", Target: "a", Path: "/x"}},
		Calls:     []diff.CallRef{{Method: "tools/call", Target: "a"}},
		Findings:  []diff.FindingRef{{Rule: "late-result"}},
		Questions: []diff.QuestionDelta{{Key: "q1", Change: diff.QuestionChanged}, {Key: "q2", Change: diff.QuestionRemoved}, {Key: "q3", Change: diff.QuestionAdded}},
		Catalog:   []diff.CatalogDelta{{Key: "t1", Change: store.ChangeChanged}, {Key: "t2", Change: store.ChangeAdded}},
	}
	n.Matched()
	if len(n.Paths) != 1 || len(n.Calls) != 1 || len(n.Findings) != 0 ||
		len(n.Questions) != 1 || n.Questions[0].Key != "q1" || len(n.Catalog) != 1 || n.Catalog[0].Key != "t1" {
		t.Errorf("Matched left %+v", n)
	}
	var none *Noise
	none.Matched() // no panic
}
