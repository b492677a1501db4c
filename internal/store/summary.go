package store

import (
	"math"
	"slices"
)

// The statistics of a Summary group calls per method and per tool
// (tools/call by target). A call is what the client asked for: a request
// and its answer, or a whole MRTR operation, which counts once under its
// method and target with its status and duration (Operation.DurationMS,
// the first request to the final answer) and all its rounds. A legacy
// server-initiated request is counted apart, in Server under its own
// method: it is a server request, not a call. Errors counts
// JSON-RPC errors, tool errors and HTTP errors (Failed); the percentiles
// cover answered calls only (an operation is answered when its last round
// is). The rollup (rollup.go) keeps them as calls and operations change.

// group accumulates one Stat.
type group struct {
	count, rounds, errors int
	durations             orderStat // of answered calls
}

// entry is one call's part of a group: a plain call is one round, an
// operation as many as it has.
type entry struct {
	status     string
	answered   bool
	durationMS float64
	rounds     int
	// negotiation marks a refused era probe (Call.Negotiation): no error.
	negotiation bool
}

// orderStat is a multiset of durations that answers "the k-th smallest"
// after any number of inserts, at a cost that follows what was inserted
// since the last answer, not how many it holds: new values wait unsorted
// in pending and are merged into sorted chunks when a rank is asked for.
type orderStat struct {
	pending []float64
	// chunks are sorted, each value of one at most every value of the
	// next; n counts their values.
	chunks [][]float64
	n      int
}

// chunkLen is the size chunks are cut to; one grows to twice that before
// it is split.
const chunkLen = 128

func (o *orderStat) insert(v float64) { o.pending = append(o.pending, v) }

// remove takes one v out; it is a no-op when v is not held.
func (o *orderStat) remove(v float64) {
	if i := slices.Index(o.pending, v); i >= 0 {
		o.pending = slices.Delete(o.pending, i, i+1)
		return
	}
	k := o.chunkFor(v)
	if k < 0 {
		return
	}
	c := o.chunks[k]
	j, found := slices.BinarySearch(c, v)
	if !found {
		return
	}
	o.chunks[k] = slices.Delete(c, j, j+1)
	o.n--
	if len(o.chunks[k]) == 0 {
		o.chunks = slices.Delete(o.chunks, k, k+1)
	}
}

// chunkFor returns the first chunk whose last value is at least v, else
// the last chunk; -1 when there is none.
func (o *orderStat) chunkFor(v float64) int {
	if len(o.chunks) == 0 {
		return -1
	}
	k, _ := slices.BinarySearchFunc(o.chunks, v, func(c []float64, v float64) int {
		if c[len(c)-1] < v {
			return -1
		}
		return 1
	})
	return min(k, len(o.chunks)-1)
}

// settle merges the pending values into the chunks.
func (o *orderStat) settle() {
	if len(o.pending) == 0 {
		return
	}
	slices.Sort(o.pending)
	if o.n == 0 {
		for p := o.pending; len(p) > 0; {
			m := min(chunkLen, len(p))
			o.chunks = append(o.chunks, p[:m:m])
			p = p[m:]
		}
		o.n, o.pending = len(o.pending), nil
		return
	}
	for _, v := range o.pending {
		k := o.chunkFor(v)
		c := o.chunks[k]
		j, _ := slices.BinarySearch(c, v)
		c = slices.Insert(c, j, v)
		if len(c) >= 2*chunkLen {
			o.chunks = slices.Insert(o.chunks, k+1, slices.Clone(c[chunkLen:]))
			c = c[:chunkLen]
		}
		o.chunks[k] = c
	}
	o.n += len(o.pending)
	o.pending = o.pending[:0]
}

// percentile is the nearest-rank p-th percentile: the smallest value with
// at least p% of the values at or below it; zero for no values.
func (o *orderStat) percentile(p float64) float64 {
	o.settle()
	if o.n == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(o.n)))
	k := max(1, min(rank, o.n)) - 1
	for _, c := range o.chunks {
		if k < len(c) {
			return c[k]
		}
		k -= len(c)
	}
	return 0
}
