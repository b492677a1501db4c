package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/store"
)

// TestLedgerKeyless pairs legacy questions (no key) by their rank within
// their call, and calls of one tool by their rank.
func TestLedgerKeyless(t *testing.T) {
	t.Parallel()
	row := func(call int, target, msg, action string, fields ...store.LedgerField) store.LedgerRow {
		return store.LedgerRow{Root: store.LedgerRoot{Call: call, Method: "tools/call", Target: target},
			Era: store.LedgerLegacy, Mode: "form", Message: msg, Action: action, Status: store.LedgerAnswered, Fields: fields}
	}
	guests := store.LedgerField{Name: "guests", Type: "integer", Required: true}
	a := []store.LedgerRow{
		row(1, "book", "How many guests?", "accept", guests),
		row(1, "book", "Deposit?", "accept"),
		row(5, "book", "How many guests?", "accept", guests),
	}
	b := []store.LedgerRow{
		row(2, "book", "How many guests?", "accept", store.LedgerField{Name: "guests", Type: "string"}),
		row(2, "book", "Pay a deposit?", "decline"),
		row(2, "book", "Allergies?", "accept"),
		row(7, "book", "How many guests?", "accept", guests),
	}
	want := []QuestionDelta{{
		Method: "tools/call", Target: "book", Change: QuestionChanged, Message: "How many guests?",
		Changes: []Change{
			{What: ChangeType, Field: "guests", Old: "integer", New: "string"},
			{What: ChangeRequired, Field: "guests", Old: "true", New: "false"},
		},
	}, {
		Method: "tools/call", Target: "book", Change: QuestionChanged, Message: "Pay a deposit?",
		Changes: []Change{
			{What: ChangeMessage, Old: "Deposit?", New: "Pay a deposit?"},
			{What: ChangeAction, Old: "accept", New: "decline"},
		},
	}, {
		Method: "tools/call", Target: "book", Change: QuestionAdded, Message: "Allergies?",
	}}
	if diff := cmp.Diff(want, compareLedgers(a, b)); diff != "" {
		t.Errorf("ledger (-want +got):\n%s", diff)
	}
	if got := compareLedgers(a, a); len(got) != 0 {
		t.Errorf("a ledger differs from itself: %+v", got)
	}
}

// TestFindingsMatch matches findings by rule and call, never by seq or
// message, one for one.
func TestFindingsMatch(t *testing.T) {
	t.Parallel()
	f := func(rule, target string, seq uint64) FindingRef {
		return FindingRef{Rule: rule, Method: "tools/call", Target: target, Seq: seq, Message: "m"}
	}
	a := []FindingRef{f("x", "t1", 1), f("x", "t1", 5), f("y", "t2", 9)}
	b := []FindingRef{f("x", "t1", 30), f("y", "t3", 40), f("y", "t2", 2)}
	if diff := cmp.Diff([]FindingRef{f("y", "t3", 40)}, onlyIn(b, a)); diff != "" {
		t.Errorf("new (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]FindingRef{f("x", "t1", 5)}, onlyIn(a, b)); diff != "" {
		t.Errorf("gone (-want +got):\n%s", diff)
	}
}

// TestCatalogs compares by hash, against a side that listed nothing too.
func TestCatalogs(t *testing.T) {
	t.Parallel()
	def := func(key, hash string) store.Definition {
		return store.Definition{Definition: mcp.Definition{Key: key}, Hash: hash}
	}
	a := &store.Catalog{Lists: []store.CatalogList{{Kind: store.KindTool, Definitions: []store.Definition{def("s", "h1"), def("d", "h2")}}}}
	b := &store.Catalog{Lists: []store.CatalogList{{Kind: store.KindTool, Definitions: []store.Definition{def("n", "h4"), def("s", "h3")}}}}
	got := compareCatalogs(a, b)
	want := []CatalogDelta{
		{Kind: store.KindTool, Key: "s", Change: store.ChangeChanged, OldHash: "h1", NewHash: "h3"},
		{Kind: store.KindTool, Key: "d", Change: store.ChangeRemoved, OldHash: "h2"},
		{Kind: store.KindTool, Key: "n", Change: store.ChangeAdded, NewHash: "h4"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(CatalogDelta{}, "Old", "New")); diff != "" {
		t.Errorf("catalog (-want +got):\n%s", diff)
	}
	if got[0].Old.Hash != "h1" || got[0].New.Hash != "h3" || got[1].New != nil || got[2].Old != nil {
		t.Errorf("the deltas do not carry the definitions: %+v", got)
	}
	if n := len(compareCatalogs(nil, b)); n != 2 {
		t.Errorf("against no catalog: %d deltas, want 2 added", n)
	}
	if got := compareCatalogs(nil, nil); len(got) != 0 {
		t.Errorf("no catalogs differ: %+v", got)
	}
}

func TestSlower(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		old, new float64
		opts     Options
		want     bool
	}{
		{10, 20, Options{SlowerThan: 2}, true},
		{10, 19.9, Options{SlowerThan: 2}, false},
		{10, 100, Options{}, false}, // no duration comparison
		{0, 100, Options{SlowerThan: 2}, false},
		{0.1, 0.5, Options{SlowerThan: 2, MinSlowerMS: 1}, false},
		{1, 5, Options{SlowerThan: 2, MinSlowerMS: 1}, true},
		// The floor bounds the growth: a loaded machine's hiccup of tens
		// of milliseconds is not a slower server.
		{19.2, 47.5, Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}, false},
		{17.5, 54.4, Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}, false},
		{40, 420, Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}, true},
		{300, 420, Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}, false},
	} {
		if got := slower(tt.old, tt.new, &tt.opts); got != tt.want {
			t.Errorf("slower(%v, %v, %+v) = %v, want %v", tt.old, tt.new, tt.opts, got, tt.want)
		}
	}
}

// TestWithoutFrames compares snapshots that cannot give their frames (no
// Source, no KeepFrames): calls match by method and target alone and
// nothing fails.
func TestWithoutFrames(t *testing.T) {
	t.Parallel()
	tr := readTranscript(t, corpusDir+"/elicit-seed.transcript.jsonl")
	data := captureOf(t, tr, "seed")
	r, err := capture.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := store.Load(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Sessions(bare, bare, Options{SlowerThan: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Differs() || rep.Calls.Matched != 3 {
		t.Errorf("Differs() = %v, matched %d; want false, 3", rep.Differs(), rep.Calls.Matched)
	}
}

// TestTextLatency: the text report lists only the p50s that count as a
// difference (slower); a faster p50, or one that grew by less than the
// factor, is not printed, and a report whose only latency rows are such
// says "no differences" with no latency section.
func TestTextLatency(t *testing.T) {
	t.Parallel()
	rows := []Latency{
		{Group: "method", Name: "tools/call", OldMS: 970, NewMS: 690},
		{Group: "tool", Name: "slow", OldMS: 310, NewMS: 690, Slower: true},
		{Group: "tool", Name: "bit-slower", OldMS: 100, NewMS: 150},
	}
	for _, tt := range []struct {
		name string
		rows []Latency
		want string
	}{
		{"one slower", rows, "A a, 0 calls  B b, 0 calls\n" +
			"calls: 0 matched (0 MRTR), 0 changed, 0 only in A, 0 only in B, 0 slower\n" +
			"latency (p50):\n  tool slow 310.0ms -> 690.0ms slower\n"},
		{"none slower", []Latency{rows[0], rows[2]}, "A a, 0 calls  B b, 0 calls\n" +
			"calls: 0 matched (0 MRTR), 0 changed, 0 only in A, 0 only in B, 0 slower\n" +
			"no differences\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &Report{A: Side{Session: "a"}, B: Side{Session: "b"}, Latency: tt.rows}
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMS: durations print through units.Millis, rounded for reading, never as the raw digits of
// a float sum (47.51431199999999ms), in every magnitude.
func TestMS(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{47.51431199999999, "47.5ms"},
		{19.2, "19.2ms"},
		{40, "40.0ms"},
		{420, "420.0ms"},
		{0.0421234, "0.04ms"},
		{0, "0ms"},
		{999.96, "1.00s"},
		{2840.4, "2.84s"},
		{123456.7891, "2m03s"},
		{-3.25, "-3.2ms"},
	} {
		if got := ms(tt.in); got != tt.want {
			t.Errorf("ms(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSlowerRounded: the slower calls and p50s of a report carry their
// durations rounded to the microsecond, in text and JSON alike.
func TestSlowerRounded(t *testing.T) {
	t.Parallel()
	a := []call{{ref: CallRef{Method: "tools/call", Target: "x"}, ms: 19.212345678}}
	b := []call{{ref: CallRef{Method: "tools/call", Target: "x"}, ms: 97.51431199999999}}
	got := compareCalls(a, b, &Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS})
	want := []Slower{{CallRef: a[0].ref, OldMS: 19.212, NewMS: 97.514}}
	if d := cmp.Diff(want, got.Slower); d != "" {
		t.Errorf("slower (-want +got):\n%s", d)
	}
	// Jitter: doubled, but under the floor.
	b[0].ms = 47.51431199999999
	if got := compareCalls(a, b, &Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}); len(got.Slower) != 0 {
		t.Errorf("19.2ms -> 47.5ms counted as slower under the %vms floor: %+v", DefaultMinSlowerMS, got.Slower)
	}
	// The handshake waits for the server to start: never slower.
	for _, m := range []string{"initialize", "server/discover"} {
		a[0].ref.Method, b[0].ref.Method, b[0].ms = m, m, 463.6
		if got := compareCalls(a, b, &Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}); len(got.Slower) != 0 {
			t.Errorf("%s counted as slower: %+v", m, got.Slower)
		}
		sa := &store.Summary{Methods: []store.Stat{{Name: m, P50MS: 19.2}}}
		sb := &store.Summary{Methods: []store.Stat{{Name: m, P50MS: 463.6}}}
		if got := compareLatency(sa, sb, &Options{SlowerThan: 2, MinSlowerMS: DefaultMinSlowerMS}); len(got) != 1 || got[0].Slower {
			t.Errorf("%s p50: %+v, want one row, not slower", m, got)
		}
	}
	var buf bytes.Buffer
	r := &Report{Calls: Calls{Slower: want}}
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "slower: tools/call[x] 19.2ms -> 97.5ms\n") {
		t.Errorf("text:\n%s", buf.String())
	}
}
