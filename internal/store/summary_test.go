package store

import (
	"strings"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// percentile is the nearest-rank p-th percentile of values, through an
// orderStat (TestPercentile's subject).
func percentile(values []float64, p float64) float64 {
	var o orderStat
	for _, v := range values {
		o.insert(v)
	}
	return o.percentile(p)
}

// TestOrderStat checks the chunked multiset against a sorted slice through
// inserts, removals and rank queries interleaved, across chunk splits.
func TestOrderStat(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var o orderStat
	var ref []float64
	for step := range 20_000 {
		switch r := rng.IntN(10); {
		case r < 7:
			v := float64(rng.IntN(500))
			o.insert(v)
			ref = append(ref, v)
		case r < 9 && len(ref) > 0:
			v := ref[rng.IntN(len(ref))]
			o.remove(v)
			i := slices.Index(ref, v)
			ref = slices.Delete(ref, i, i+1)
		default:
			o.remove(1e9) // not held: a no-op
		}
		if step%97 != 0 {
			continue
		}
		sorted := slices.Sorted(slices.Values(ref))
		for _, p := range []float64{0, 1, 50, 95, 99, 100} {
			want := 0.0
			if len(sorted) > 0 {
				want = sorted[max(1, min(int(math.Ceil(p/100*float64(len(sorted)))), len(sorted)))-1]
			}
			if got := o.percentile(p); got != want {
				t.Fatalf("step %d: percentile(%v) of %d values = %v, want %v", step, p, len(sorted), got, want)
			}
		}
	}
}

// checkDerived checks what the store keeps up to date as calls change
// against the same things computed afresh from the snapshot's calls, as
// snapshots were built before: the summary, the eras and protocol
// versions in order of first use, and each operation's status and times.
func checkDerived(t testing.TB, snap *Snapshot) {
	t.Helper()
	calls := snap.Calls.Slice()
	if diff := gocmp.Diff(summarizeAfresh(calls, snap.Operations.Slice()), snap.Summary, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("summary (-afresh +kept):\n%s", diff)
	}
	var eras, versions []string
	for _, c := range calls {
		if c.Era != "" && !slices.Contains(eras, c.Era) {
			eras = append(eras, c.Era)
		}
		if c.ProtocolVersion != "" && !slices.Contains(versions, c.ProtocolVersion) {
			versions = append(versions, c.ProtocolVersion)
		}
	}
	if !slices.Equal(eras, snap.Session.Eras) || !slices.Equal(versions, snap.Session.ProtocolVersions) {
		t.Errorf("eras %q and versions %q, want %q and %q", snap.Session.Eras, snap.Session.ProtocolVersions, eras, versions)
	}
	for i, op := range snap.Operations.All() {
		want := op
		last := calls[op.Rounds[len(op.Rounds)-1].Call]
		want.Start, want.Status = calls[op.Root].Start, last.Status
		want.End, want.DurationMS, want.ToolMS = time.Time{}, 0, 0
		switch {
		case op.Task.ID != "": // a task ends where its terminal status was seen
			want.Status = taskStatus(&op.Task)
			if op.Task.Terminal() {
				want.End = op.Task.TerminalAt
				want.DurationMS = ms(want.End.Sub(want.Start))
				want.ToolMS = want.DurationMS - want.WaitMS
			}
		case last.ResponseSeq != 0:
			want.End = last.End
			want.DurationMS = ms(want.End.Sub(want.Start))
			want.ToolMS = want.DurationMS - want.WaitMS
		}
		if diff := gocmp.Diff(want, op, cmpopts.EquateComparable(wire.ID{})); diff != "" {
			t.Errorf("operation %d (-afresh +kept):\n%s", i, diff)
		}
	}
}

// summarizeAfresh groups calls per method and per tool as Summary does:
// a call outside any operation is one call of one round, an operation one
// call of its rounds, its final status and its whole duration.
func summarizeAfresh(calls []Call, ops []Operation) Summary {
	type item struct {
		status     string
		answered   bool
		durationMS float64
		rounds     int
		failed     bool
	}
	methods, tools, server := map[string][]item{}, map[string][]item{}, map[string][]item{}
	add := func(method, target string, it item) {
		methods[method] = append(methods[method], it)
		if method == mcp.MethodToolsCall {
			tools[target] = append(tools[target], it)
		}
	}
	for _, c := range calls {
		if c.Operation < 0 {
			failed := (c.Status == StatusError || c.Status == StatusToolError || c.Status == StatusHTTPError) && !c.Negotiation
			it := item{c.Status, c.ResponseSeq != 0, c.DurationMS, 1, failed}
			if c.Dir == capture.S2C {
				server[c.Method] = append(server[c.Method], it)
				continue
			}
			add(c.Method, c.Target, it)
		}
	}
	for _, op := range ops {
		last := calls[op.Rounds[len(op.Rounds)-1].Call]
		failed := op.Status == StatusError || op.Status == StatusToolError || op.Status == StatusHTTPError
		answered := last.ResponseSeq != 0
		if op.Task.ID != "" {
			answered = op.Task.Terminal()
		}
		add(op.Method, op.Target, item{op.Status, answered, op.DurationMS, len(op.Rounds), failed})
	}
	stats := func(m map[string][]item) []Stat {
		var out []Stat
		for name, its := range m {
			st := Stat{Name: name, Count: len(its)}
			var ds []float64
			for _, it := range its {
				st.Rounds += it.rounds
				if it.failed {
					st.Errors++
				}
				if it.answered {
					ds = append(ds, it.durationMS)
				}
			}
			slices.Sort(ds)
			rank := func(p float64) float64 {
				if len(ds) == 0 {
					return 0
				}
				return ds[max(1, min(int(math.Ceil(p/100*float64(len(ds)))), len(ds)))-1]
			}
			st.P50MS, st.P95MS, st.P99MS = rank(50), rank(95), rank(99)
			out = append(out, st)
		}
		slices.SortFunc(out, func(a, b Stat) int { return strings.Compare(a.Name, b.Name) })
		return out
	}
	return Summary{Methods: stats(methods), Tools: stats(tools), Server: stats(server)}
}

// TestFirstUseStale checks that when the first call using a value stops
// using it while a later one still does, the value moves to where that
// later call puts it.
func TestFirstUseStale(t *testing.T) {
	t.Parallel()
	var f firstUse
	f.add("a", 0)
	f.add("b", 1)
	f.add("a", 2)
	f.remove("a", 0) // call 0 now uses c
	f.add("c", 0)
	calls := CallsOf([]Call{{Era: "c"}, {Era: "b"}, {Era: "a"}})
	got := f.list(&calls, func(c *Call) string { return c.Era })
	if want := []string{"c", "b", "a"}; !slices.Equal(got, want) {
		t.Errorf("list = %q, want %q", got, want)
	}
}
