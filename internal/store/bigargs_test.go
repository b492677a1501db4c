package store

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// bigArgs returns tool arguments of about n bytes: a text member made of
// text, after or before another member as first says.
func bigArgs(n int, text string, first bool) string {
	body := `"text":"` + strings.Repeat(text, n/len(text)) + `"`
	if first {
		return `{"a":1,` + body + `}`
	}
	return `{` + body + `,"a":1.0}`
}

// TestMRTRBigArguments pairs retries whose arguments are past maxArgs,
// which are compared by the hash of their bytes.
func TestMRTRBigArguments(t *testing.T) {
	t.Parallel()
	const ans = `,"inputResponses":{"a":{"action":"accept","content":{"x":1}}}`
	runScenarios(t, []scenario{{
		name: "heuristic pairing of equal big arguments",
		steps: []step{
			c2s(0, tool("1", "t", bigArgs(3*maxArgs, "xy", true), "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", bigArgs(3*maxArgs, "xy", true), ans)),
			s2c(1, done("2")),
		},
		calls: []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern op=0/2"},
		ops:   []string{"tools/call[t] ok root=0 rounds=0:root,1:heuristic"},
	}, {
		name: "big arguments that differ are a fresh call",
		steps: []step{
			c2s(0, tool("1", "t", bigArgs(3*maxArgs, "xy", true), "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", bigArgs(3*maxArgs, "xz", true), ans)),
			s2c(1, done("2")),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern"},
		ops:      []string{"tools/call[t] input-required root=0 rounds=0:root"},
		findings: []string{"unpaired-retry@3"},
	}})
}

// TestTrackBounded checks that a pending call keeps a bounded key of huge
// arguments, not a copy of them.
func TestTrackBounded(t *testing.T) {
	t.Parallel()
	var tab callTable
	small := jsontext.Value(`{"q":"x"}`)
	tab.track(0, small)
	tab.track(1, jsontext.Value(bigArgs(1<<20, "ab", true)))
	if got := string(tab.args.get(0)); got != string(small) {
		t.Errorf("small arguments kept as %q", got)
	}
	if n := len(tab.args.get(1)); n > 100 {
		t.Errorf("1 MiB of arguments kept as %d bytes", n)
	}
	if k1, k2 := trackedKey(tab.args.get(1)), argsKey(jsontext.Value(bigArgs(1<<20, "ab", true))); k1 != k2 {
		t.Errorf("tracked key %q, want %q", k1, k2)
	}
}

// TestTrackEmptyArgs checks that a pending call whose arguments are absent
// or `{}` is tracked without a copy of them (a million such calls held a
// million small copies), and that its key is still "{}".
func TestTrackEmptyArgs(t *testing.T) {
	t.Parallel()
	var tab callTable
	tab.track(0, jsontext.Value(`{}`))
	tab.track(1, nil)
	tab.track(70, jsontext.Value(`{"a":1}`))
	if tab.args.len() != 1 {
		t.Errorf("%d argument copies kept, want 1 (for call 70)", tab.args.len())
	}
	for _, i := range []int{0, 1} {
		args, ok := tab.untrack(i)
		if !ok || trackedKey(args) != "{}" {
			t.Errorf("untrack(%d) = %q, %v; want key {}, tracked", i, args, ok)
		}
	}
	if args, ok := tab.untrack(70); !ok || string(args) != `{"a":1}` {
		t.Errorf("untrack(70) = %q, %v", args, ok)
	}
	for _, i := range []int{0, 2, 70, 500} {
		if _, ok := tab.untrack(i); ok {
			t.Errorf("call %d still tracked", i)
		}
	}
}

// TestMRTRMidArguments pairs retries whose arguments are past keptArgs
// (the pending call keeps the hash of their canonical form, not a copy):
// key order and number spelling still do not matter, a different value
// still makes a fresh call, and a kilobyte of arguments is kept in under
// 100 bytes.
func TestMRTRMidArguments(t *testing.T) {
	t.Parallel()
	const ans = `,"inputResponses":{"a":{"action":"accept","content":{"x":1}}}`
	const n = 1000 // past keptArgs and hashedArgs, under maxArgs
	runScenarios(t, []scenario{{
		name: "reordered equal arguments pair",
		steps: []step{
			c2s(0, tool("1", "t", bigArgs(n, "xy", true), "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", bigArgs(n, "xy", false), ans)),
			s2c(1, done("2")),
		},
		calls: []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern op=0/2"},
		ops:   []string{"tools/call[t] ok root=0 rounds=0:root,1:heuristic"},
	}, {
		name: "arguments that differ are a fresh call",
		steps: []step{
			c2s(0, tool("1", "t", bigArgs(n, "xy", true), "")),
			s2c(1, inputRequired("1", elicit("a"), "")),
			c2s(1, tool("2", "t", bigArgs(n, "xz", false), ans)),
			s2c(1, done("2")),
		},
		calls:    []string{"c2s 1 tools/call[t] input-required modern op=0/1", "c2s 2 tools/call[t] ok modern"},
		ops:      []string{"tools/call[t] input-required root=0 rounds=0:root"},
		findings: []string{"unpaired-retry@3"},
	}})
	var tab callTable
	args := jsontext.Value(bigArgs(n, "xy", true))
	tab.track(0, args)
	if k := len(tab.args.get(0)); k > 100 {
		t.Errorf("%d bytes of arguments kept as %d bytes", len(args), k)
	}
	if k1, k2 := trackedKey(tab.args.get(0)), argsKey(jsontext.Value(bigArgs(n, "xy", false))); k1 != k2 {
		t.Errorf("tracked key %q, want %q (the reordered arguments' key)", k1, k2)
	}
}
