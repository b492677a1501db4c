package rules

import (
	"strconv"
	"testing"

	"github.com/mcptrail/mcptrail/internal/store"
)

// BenchmarkChecks ingests 10k answered modern tools/call without and with
// the registry and the checks, to show what the rules cost per frame.
func BenchmarkChecks(b *testing.B) {
	var steps []step
	for i := range 10_000 {
		id := strconv.Itoa(i + 1)
		steps = append(steps, c2s(tool(id, "echo", `{"text":"hello"}`, "")), s2c(res(id, `{"resultType":"complete","content":[]}`)))
	}
	recs := records(steps)
	for _, bc := range []struct {
		name string
		opts func() *store.Options
	}{
		{"bare", func() *store.Options { return nil }},
		{"rules", func() *store.Options { return &store.Options{Rules: Default(), Checks: Checks()} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st := store.New(bc.opts())
				for i := range recs {
					r := recs[i]
					st.Ingest(&r)
				}
				_ = st.Final()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(recs)), "ns/record")
		})
	}
}
