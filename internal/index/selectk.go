package index

import "math"

// percentiles returns the nearest-rank p50 and p95 of the values held by
// parts (nil when there are none), without sorting them all: a
// quickselect for each rank on one copy.
func percentiles(parts [][]float64) (p50, p95 any) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return nil, nil
	}
	vs := make([]float64, 0, n)
	for _, p := range parts {
		vs = append(vs, p...)
	}
	k95 := rankIndex(95, n)
	v95 := selectK(vs, k95)
	// Every value left of k95 is <= it: the lower rank is among them.
	k50 := rankIndex(50, n)
	v50 := v95
	if k50 < k95 {
		v50 = selectK(vs[:k95], k50)
	}
	return v50, v95
}

// rankIndex is the 0-based index of the nearest-rank p-th percentile of n
// values (Percentile's rule).
func rankIndex(p float64, n int) int {
	rank := int(math.Ceil(p / 100 * float64(n)))
	return max(1, min(rank, n)) - 1
}

// selectK reorders vs so that vs[k] is the value a sort would put there,
// with no greater value before it and no smaller one after, and returns
// it. It is Hoare's quickselect with a median-of-three pivot.
func selectK(vs []float64, k int) float64 {
	lo, hi := 0, len(vs)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if vs[mid] < vs[lo] {
			vs[mid], vs[lo] = vs[lo], vs[mid]
		}
		if vs[hi] < vs[lo] {
			vs[hi], vs[lo] = vs[lo], vs[hi]
		}
		if vs[hi] < vs[mid] {
			vs[hi], vs[mid] = vs[mid], vs[hi]
		}
		pivot := vs[mid]
		i, j := lo, hi
		for i <= j {
			for vs[i] < pivot {
				i++
			}
			for vs[j] > pivot {
				j--
			}
			if i <= j {
				vs[i], vs[j] = vs[j], vs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return vs[k]
		}
	}
	return vs[k]
}
