package store

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
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
