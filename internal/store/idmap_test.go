package store

import (
	"math/rand/v2"
	"testing"
)

// TestIDMapNums checks idMap's integer ids against a plain map, for ids
// that count up, come sparse, negative or huge, and repeat.
func TestIDMapNums(t *testing.T) {
	gens := map[string]func(r *rand.Rand, i int) int64{
		"ascending from 1": func(_ *rand.Rand, i int) int64 { return int64(i + 1) },
		"ascending by 7":   func(_ *rand.Rand, i int) int64 { return int64(7 * i) },
		"small random":     func(r *rand.Rand, _ int) int64 { return r.Int64N(5000) },
		"signed random":    func(r *rand.Rand, _ int) int64 { return r.Int64N(1<<20) - 1<<19 },
		"huge":             func(r *rand.Rand, _ int) int64 { return 1<<40 + r.Int64N(100) },
		"mixed": func(r *rand.Rand, i int) int64 {
			if i%3 == 0 {
				return r.Int64()
			}
			return int64(i)
		},
	}
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			m := &idMap{nums: map[int64]int{}, strs: map[string]int{}}
			want := map[int64]int{}
			var ids []int64
			for i := range 20_000 {
				n := gen(r, i)
				ids = append(ids, n)
				m.setNum(n, i)
				want[n] = i
				// Look up an id seen before and one perhaps never seen.
				for _, q := range []int64{ids[r.IntN(len(ids))], gen(r, i+1) + 1} {
					got, ok := m.getNum(q)
					w, wok := want[q]
					if got != w || ok != wok {
						t.Fatalf("after %d sets, id %d: got (%d, %v), want (%d, %v)", i+1, q, got, ok, w, wok)
					}
				}
			}
			if len(m.dense) > 2*(len(want)+1024)+64 {
				t.Errorf("dense holds %d slots for %d ids", len(m.dense), len(want))
			}
		})
	}
}
