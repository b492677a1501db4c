package store

import (
	"math"
	"slices"
	"strings"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// group accumulates one Stat.
type group struct {
	count, errors int
	durations     []float64 // of answered calls
}

func (g *group) add(c *Call) {
	g.count++
	if c.Status == StatusError || c.Status == StatusToolError {
		g.errors++
	}
	if c.ResponseSeq != 0 {
		g.durations = append(g.durations, c.DurationMS)
	}
}

// summarize groups calls per method and per tool (tools/call by target).
// Every call counts, so each round of an MRTR operation is one call of its
// method; Errors counts JSON-RPC errors and tool errors; the percentiles
// cover answered calls only.
func summarize(calls *Calls) Summary {
	methods := make(map[string]*group)
	tools := make(map[string]*group)
	for i := range calls.Len() {
		c := calls.At(i)
		groupFor(methods, c.Method).add(&c)
		if c.Method == mcp.MethodToolsCall {
			groupFor(tools, c.Target).add(&c)
		}
	}
	return Summary{Methods: stats(methods), Tools: stats(tools)}
}

func groupFor(m map[string]*group, name string) *group {
	g, ok := m[name]
	if !ok {
		g = &group{}
		m[name] = g
	}
	return g
}

// stats turns groups into Stats sorted by name.
func stats(m map[string]*group) []Stat {
	out := make([]Stat, 0, len(m))
	for name, g := range m {
		slices.Sort(g.durations)
		out = append(out, Stat{
			Name: name, Count: g.count, Errors: g.errors,
			P50MS: percentile(g.durations, 50),
			P95MS: percentile(g.durations, 95),
			P99MS: percentile(g.durations, 99),
		})
	}
	slices.SortFunc(out, func(a, b Stat) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// percentile is the nearest-rank p-th percentile of sorted values: the
// smallest value with at least p% of the values at or below it; zero for
// no values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}
