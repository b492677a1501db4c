package index

import (
	"cmp"
	"path/filepath"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// The expected tables are computed here from what the generator wrote
// (genSession), not by the code under test.

func genFixture(t *testing.T, o genOptions) (string, []genSession) {
	t.Helper()
	state := t.TempDir()
	ss, err := generate(filepath.Join(state, "sessions"), o)
	if err != nil {
		t.Fatal(err)
	}
	return state, ss
}

func openSynced(t *testing.T, state string) *Index {
	t.Helper()
	ix, err := Open(state, func(s string) { t.Errorf("unexpected warning: %s", s) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(filepath.Join(state, "sessions")); err != nil {
		t.Fatal(err)
	}
	return ix
}

// nearestRank is the p-th percentile (nearest rank) of vs, nil when empty.
func nearestRank(vs []float64, p int) any {
	if len(vs) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(vs))
	rank := (p*len(s) + 99) / 100
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}

func frac(a, b int) any {
	if b == 0 {
		return nil
	}
	return float64(a) / float64(b)
}

type wantCalls struct {
	n, errs int
	durs    []float64
}

func (w *wantCalls) add(c *genCall) {
	w.n++
	if c.failed {
		w.errs++
	}
	w.durs = append(w.durs, c.duration)
}

func (w *wantCalls) cells() []any {
	return []any{w.n, w.errs, frac(w.errs, w.n), nearestRank(w.durs, 50), nearestRank(w.durs, 95)}
}

type wantAnswers struct {
	asked, accept, decline, cancel, pending int
	elapsed                                 []float64
	wait, op                                float64
	mode                                    string
}

func (w *wantAnswers) add(c *genCall) {
	w.asked++
	w.mode = c.mode
	switch c.action {
	case "accept":
		w.accept++
	case "decline":
		w.decline++
	case "cancel":
		w.cancel++
	case "":
		w.pending++
	}
	if c.action != "" {
		w.elapsed = append(w.elapsed, c.elapsed)
	}
	w.wait += c.wait
	w.op += c.op
}

func (w *wantAnswers) rates() []any {
	return []any{w.asked, frac(w.accept, w.asked), frac(w.decline, w.asked), frac(w.cancel, w.asked), frac(w.pending, w.asked)}
}

func get[K comparable, V any](m map[K]*V, k K) *V {
	if m[k] == nil {
		m[k] = new(V)
	}
	return m[k]
}

func wantByTool(ss []genSession) [][]any {
	all := &wantCalls{}
	tools := map[string]*wantCalls{}
	for i := range ss {
		for j := range ss[i].calls {
			c := &ss[i].calls[j]
			all.add(c)
			get(tools, c.tool).add(c)
		}
	}
	rows := [][]any{append([]any{"method", "tools/call"}, all.cells()...)}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range tools {
			if !yield(k) {
				return
			}
		}
	})
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(tools[b].n, tools[a].n) })
	for _, k := range names {
		rows = append(rows, append([]any{"tool", k}, tools[k].cells()...))
	}
	return rows
}

func wantByQuestion(ss []genSession) [][]any {
	type key struct{ server, tool, q string }
	m := map[key]*wantAnswers{}
	var keys []key
	for i := range ss {
		for j := range ss[i].calls {
			c := &ss[i].calls[j]
			if !c.asked {
				continue
			}
			k := key{ss[i].server, c.tool, c.key}
			if m[k] == nil {
				keys = append(keys, k)
			}
			get(m, k).add(c)
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(m[b].asked, m[a].asked), cmp.Compare(a.server, b.server), cmp.Compare(a.tool, b.tool), cmp.Compare(a.q, b.q))
	})
	var rows [][]any
	for _, k := range keys {
		w := m[k]
		row := append([]any{k.server, k.tool, k.q, w.mode}, w.rates()...)
		rows = append(rows, append(row, nearestRank(w.elapsed, 50), nearestRank(w.elapsed, 95), w.wait/w.op))
	}
	return rows
}

func wantByClient(ss []genSession) [][]any {
	type key struct{ name, version string }
	type agg struct {
		sessions int
		modes    string
		answers  wantAnswers
	}
	m := map[key]*agg{}
	var keys []key
	for i := range ss {
		s := &ss[i]
		k := key{s.client, s.clientVersion}
		if m[k] == nil {
			keys = append(keys, k)
		}
		a := get(m, k)
		a.sessions++
		a.modes = map[[2]bool]string{{true, true}: "form,url", {true, false}: "form", {false, true}: "url", {false, false}: "none"}[[2]bool{s.form, s.url}]
		for j := range s.calls {
			if s.calls[j].asked {
				a.answers.add(&s.calls[j])
			}
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(m[b].sessions, m[a].sessions), cmp.Compare(a.name, b.name))
	})
	var rows [][]any
	for _, k := range keys {
		rows = append(rows, append([]any{k.name, k.version, m[k].modes, m[k].sessions}, m[k].answers.rates()...))
	}
	return rows
}

func wantBySession(ss []genSession, name func(*genSession) string) [][]any {
	type agg struct {
		sessions int
		calls    wantCalls
		answers  wantAnswers
	}
	m := map[string]*agg{}
	for i := range ss {
		a := get(m, name(&ss[i]))
		a.sessions++
		for j := range ss[i].calls {
			c := &ss[i].calls[j]
			a.calls.add(c)
			if c.asked {
				a.answers.add(c)
			}
		}
	}
	var rows [][]any
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}) {
		rows = append(rows, slices.Concat([]any{k, m[k].sessions}, m[k].calls.cells(), m[k].answers.rates()))
	}
	return rows
}

func TestStatsKnownAnswers(t *testing.T) {
	newest := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	state, ss := genFixture(t, genOptions{Sessions: 60, Calls: 25, Newest: newest, Spacing: 7 * time.Hour, Seed: 42})
	ix := openSynced(t, state)
	since := newest.Add(-5 * 24 * time.Hour)
	filters := []struct {
		name string
		f    Filter
		keep func(*genSession) bool
	}{
		{"all", Filter{}, func(*genSession) bool { return true }},
		{"since", Filter{Since: since}, func(s *genSession) bool { return !s.start.Before(since) }},
		{"label", Filter{Label: "beta"}, func(s *genSession) bool { return s.label == "beta" }},
	}
	for _, fl := range filters {
		var sel []genSession
		for i := range ss {
			if fl.keep(&ss[i]) {
				sel = append(sel, ss[i])
			}
		}
		if len(sel) == 0 {
			t.Fatalf("%s: the fixture selects no session", fl.name)
		}
		want := map[string][][]any{
			ByTool: wantByTool(sel), ByQuestion: wantByQuestion(sel), ByClient: wantByClient(sel),
			ByServer: wantBySession(sel, func(s *genSession) string { return s.server }),
			ByDay:    wantBySession(sel, func(s *genSession) string { return s.start.Format(time.DateOnly) }),
		}
		for _, by := range Bys() {
			got, err := ix.Stats(fl.f, by)
			if err != nil {
				t.Fatal(err)
			}
			if len(want[by]) == 0 {
				t.Fatalf("%s by %s: the fixture expects no row", fl.name, by)
			}
			if diff := gocmp.Diff(want[by], got.Rows); diff != "" {
				t.Errorf("%s by %s: rows (-want +got):\n%s", fl.name, by, diff)
			}
			if len(got.Columns) != len(got.Rows[0]) {
				t.Errorf("%s by %s: %d columns for rows of %d", fl.name, by, len(got.Columns), len(got.Rows[0]))
			}
		}
	}
}
