package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPercentilesMatchSorting checks the quickselect against a sort, on
// random, sorted, reversed and constant inputs split in parts.
func TestPercentilesMatchSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		for shape := range 4 {
			vs := make([]float64, n)
			for i := range vs {
				switch shape {
				case 0:
					vs[i] = float64(rng.IntN(50))
				case 1:
					vs[i] = float64(i)
				case 2:
					vs[i] = float64(n - i)
				case 3:
					vs[i] = 7
				}
			}
			cut := 0
			if n > 0 {
				cut = rng.IntN(n)
			}
			p50, p95 := percentiles([][]float64{vs[:cut], vs[cut:]})
			sorted := slices.Sorted(slices.Values(vs))
			if want := nearestRank(sorted, 50); p50 != want {
				t.Fatalf("n=%d shape=%d: p50 %v, want %v", n, shape, p50, want)
			}
			if want := nearestRank(sorted, 95); p95 != want {
				t.Fatalf("n=%d shape=%d: p95 %v, want %v", n, shape, p95, want)
			}
		}
	}
}
