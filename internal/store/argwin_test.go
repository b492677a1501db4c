package store

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestPendingArgs checks pendingArgs against a plain map: calls tracked
// in ascending order (some skipped, some again out of order), answered
// soon, late or never, and the window staying dense.
func TestPendingArgs(t *testing.T) {
	for _, lateEvery := range []int{0, 3, 50} {
		t.Run("late every "+strconv.Itoa(lateEvery), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			var p pendingArgs
			want := map[int]jsontext.Value{}
			var open []int
			check := func(i int) {
				t.Helper()
				if got, w := string(p.get(i)), string(want[i]); got != w {
					t.Fatalf("get(%d) = %q, want %q", i, got, w)
				}
			}
			for i := range 50_000 {
				if r.IntN(4) != 0 {
					v := jsontext.Value(`{"i":` + strconv.Itoa(i) + `}`)
					j := i
					if r.IntN(100) == 0 && i > 10 {
						j = i - 1 - r.IntN(10) // out of order: put again or late
					}
					p.put(j, v)
					want[j] = v
					open = append(open, j)
				}
				// Answer the oldest open call mostly, some other sometimes,
				// and leave every lateEvery-th pending a long while.
				for len(open) > 0 && r.IntN(3) != 0 {
					k := 0
					if r.IntN(5) == 0 {
						k = r.IntN(len(open))
					}
					j := open[k]
					if lateEvery > 0 && j%lateEvery == 0 && r.IntN(1000) != 0 {
						break
					}
					open = append(open[:k], open[k+1:]...)
					got, ok := p.take(j)
					w, wok := want[j]
					delete(want, j)
					if string(got) != string(w) || ok != wok {
						t.Fatalf("take(%d) = %q, %v; want %q, %v", j, got, ok, w, wok)
					}
				}
				check(i)
				check(r.IntN(i + 1))
				if p.len() != len(want) {
					t.Fatalf("len() = %d, want %d", p.len(), len(want))
				}
				if n := p.hi - p.lo; n > minWindow+1 && n > 4*p.live+1 {
					t.Fatalf("window of %d slots holds %d values", n, p.live)
				}
			}
		})
	}
}
