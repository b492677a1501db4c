package index

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// callAgg sums call groups.
type callAgg struct {
	calls, errors int
	durations     [][]float64
}

func (a *callAgg) add(c *callRow) {
	a.calls += c.calls
	a.errors += c.errors
	a.durations = append(a.durations, c.durations)
}

// cells returns CALLS ERRORS ERROR_RATE P50_MS P95_MS.
func (a *callAgg) cells() []any {
	p50, p95 := percentiles(a.durations)
	return []any{a.calls, a.errors, ratio(float64(a.errors), float64(a.calls)), p50, p95}
}

func callCols() []Column {
	return []Column{{"calls", Int}, {"errors", Int}, {"error_rate", Rate}, {"p50_ms", Milli}, {"p95_ms", Milli}}
}

// answerAgg sums answer groups.
type answerAgg struct {
	AnswerGroup
	elapsed [][]float64
	modes   []string
}

func (a *answerAgg) add(g *AnswerGroup) {
	a.Asked += g.Asked
	a.Accept += g.Accept
	a.Decline += g.Decline
	a.Cancel += g.Cancel
	a.Pending += g.Pending
	a.elapsed = append(a.elapsed, g.ElapsedMS)
	a.WaitMS += g.WaitMS
	a.OpMS += g.OpMS
	if g.Mode != "" && !slices.Contains(a.modes, g.Mode) {
		a.modes = append(a.modes, g.Mode)
	}
}

// rates returns ASKED ACCEPT DECLINE CANCEL PENDING.
func (a *answerAgg) rates() []any {
	n := float64(a.Asked)
	return []any{a.Asked, ratio(float64(a.Accept), n), ratio(float64(a.Decline), n),
		ratio(float64(a.Cancel), n), ratio(float64(a.Pending), n)}
}

func answerCols() []Column {
	return []Column{{"asked", Int}, {"accept", Rate}, {"decline", Rate}, {"cancel", Rate}, {"pending", Rate}}
}

func byTool(d *data) *Table {
	methods, tools, server := map[string]*callAgg{}, map[string]*callAgg{}, map[string]*callAgg{}
	get := func(m map[string]*callAgg, k string) *callAgg {
		if m[k] == nil {
			m[k] = &callAgg{}
		}
		return m[k]
	}
	for i := range d.calls {
		c := &d.calls[i]
		if c.server {
			get(server, c.method).add(c)
			continue
		}
		get(methods, c.method).add(c)
		if c.method == mcp.MethodToolsCall {
			get(tools, c.target).add(c)
		}
	}
	t := &Table{Columns: append([]Column{{"kind", Text}, {"name", Text}}, callCols()...)}
	for _, part := range []struct {
		kind string
		m    map[string]*callAgg
	}{{"method", methods}, {"tool", tools}, {"server", server}} {
		for _, k := range byCount(part.m, func(a *callAgg) int { return a.calls }) {
			t.Rows = append(t.Rows, append([]any{part.kind, k}, part.m[k].cells()...))
		}
	}
	return t
}

// byCount orders m's keys by count descending, then by name.
func byCount[V any](m map[string]V, count func(V) int) []string {
	keys := sortedKeys(m)
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(count(m[b]), count(m[a])) })
	return keys
}

func byQuestion(d *data) *Table {
	type key struct{ server, tool, question string }
	aggs := map[key]*answerAgg{}
	var order []key
	for i := range d.answers {
		g := &d.answers[i]
		k := key{serverName(d.sessions[g.sid]), g.Tool, g.Question}
		if aggs[k] == nil {
			aggs[k] = &answerAgg{}
			order = append(order, k)
		}
		aggs[k].add(&g.AnswerGroup)
	}
	slices.SortFunc(order, func(a, b key) int {
		return cmp.Or(cmp.Compare(aggs[b].Asked, aggs[a].Asked), cmp.Compare(a.server, b.server),
			cmp.Compare(a.tool, b.tool), cmp.Compare(a.question, b.question))
	})
	t := &Table{Columns: slices.Concat([]Column{{"server", Text}, {"tool", Text}, {"question", Text}, {"modes", Text}},
		answerCols(), []Column{{"p50_ms", Milli}, {"p95_ms", Milli}, {"wait_share", Share}})}
	for _, k := range order {
		a := aggs[k]
		slices.Sort(a.modes)
		p50, p95 := percentiles(a.elapsed)
		row := slices.Concat([]any{k.server, k.tool, k.question, strings.Join(a.modes, ",")}, a.rates(),
			[]any{p50, p95, ratio(a.WaitMS, a.OpMS)})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// declared names the elicitation modes a client declared.
func declared(form, url bool) string {
	switch {
	case form && url:
		return "form,url"
	case form:
		return "form"
	case url:
		return "url"
	}
	return "none"
}

func byClient(d *data) *Table {
	type key struct{ name, version string }
	type agg struct {
		sessions  int
		form, url bool
		answers   answerAgg
	}
	aggs := map[key]*agg{}
	of := map[int64]key{}
	for sid, s := range d.sessions {
		k := key{cmp.Or(s.ClientName, "(unknown)"), s.ClientVersion}
		if aggs[k] == nil {
			aggs[k] = &agg{}
		}
		a := aggs[k]
		a.sessions++
		a.form, a.url = a.form || s.ElicitForm, a.url || s.ElicitURL
		of[sid] = k
	}
	for i := range d.answers {
		aggs[of[d.answers[i].sid]].answers.add(&d.answers[i].AnswerGroup)
	}
	keys := make([]key, 0, len(aggs))
	for k := range aggs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(aggs[b].sessions, aggs[a].sessions), cmp.Compare(a.name, b.name), cmp.Compare(a.version, b.version))
	})
	t := &Table{Columns: slices.Concat([]Column{{"client", Text}, {"version", Text}, {"modes", Text}, {"sessions", Int}}, answerCols())}
	for _, k := range keys {
		a := aggs[k]
		t.Rows = append(t.Rows, slices.Concat([]any{k.name, k.version, declared(a.form, a.url), a.sessions}, a.answers.rates()))
	}
	return t
}

// bySession groups whole sessions by name(session): sessions, calls and
// answers.
func bySession(d *data, col string, name func(*Session) string) *Table {
	type agg struct {
		sessions int
		calls    callAgg
		answers  answerAgg
	}
	aggs := map[string]*agg{}
	of := map[int64]string{}
	for sid, s := range d.sessions {
		k := name(s)
		if aggs[k] == nil {
			aggs[k] = &agg{}
		}
		aggs[k].sessions++
		of[sid] = k
	}
	for i := range d.calls {
		// The server's requests are not calls, and their latency is the
		// client's (an elicitation's, its user's): byTool lists them apart.
		if !d.calls[i].server {
			aggs[of[d.calls[i].sid]].calls.add(&d.calls[i])
		}
	}
	for i := range d.answers {
		aggs[of[d.answers[i].sid]].answers.add(&d.answers[i].AnswerGroup)
	}
	t := &Table{Columns: slices.Concat([]Column{{col, Text}, {"sessions", Int}}, callCols(), answerCols())}
	for _, k := range sortedKeys(aggs) {
		a := aggs[k]
		t.Rows = append(t.Rows, slices.Concat([]any{k, a.sessions}, a.calls.cells(), a.answers.rates()))
	}
	return t
}
