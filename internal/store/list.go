package store

import (
	"iter"
	"slices"
)

// List is a read-only sequence of values a Snapshot holds (Operations,
// Ledger). Its values sit in fixed-size chunks that a snapshot shares
// with the store and with the snapshots before it: the store copies a
// chunk before it changes a value in it, so taking a snapshot costs the
// values changed since the last one, not the whole sequence. The zero
// value is empty; List values may be copied and read from any goroutine.
type List[T any] struct {
	chunks [][]T
	n      int
}

// Operations are a snapshot's MRTR operations in index order.
type Operations = List[Operation]

// Ledger is a snapshot's elicitation ledger (ledger.go), ordered by the
// time each question was asked.
type Ledger = List[LedgerRow]

// listChunk is how many values one chunk of a List holds.
const listChunk = 32

// ListOf returns a List of the values of vs, which it does not copy: the
// caller must not change vs afterwards.
func ListOf[T any](vs []T) List[T] {
	l := List[T]{n: len(vs)}
	for len(vs) > 0 {
		m := min(listChunk, len(vs))
		l.chunks = append(l.chunks, vs[:m:m])
		vs = vs[m:]
	}
	return l
}

// Len returns the number of values.
func (l *List[T]) Len() int { return l.n }

// At returns a copy of value i. It panics when i is out of range.
func (l *List[T]) At(i int) T {
	if i < 0 || i >= l.n {
		panic("store: list index out of range")
	}
	return l.chunks[i/listChunk][i%listChunk]
}

// All yields the index and a copy of each value, in order.
func (l *List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := range l.n {
			if !yield(i, l.chunks[i/listChunk][i%listChunk]) {
				return
			}
		}
	}
}

// Slice returns a copy of the values as one slice (nil when empty).
func (l *List[T]) Slice() []T {
	if l.n == 0 {
		return nil
	}
	out := make([]T, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}

// mirror keeps a List equal to a slice the store changes in place: the
// store tells it which values changed, and share hands the List out.
// Chunks that exist when a List is shared are copied before they change.
type mirror[T any] struct {
	list  List[T]
	owned []uint32 // owned[k] == epoch while chunk k is not shared
	epoch uint32
	// tail and tailLen are the last chunk and its length when the List
	// was last shared: values appended to it since are not shared.
	tail, tailLen int
}

// set makes value i v; i may be Len, which appends.
func (m *mirror[T]) set(i int, v T) {
	k := i / listChunk
	if i == m.list.n {
		if i%listChunk == 0 {
			m.list.chunks = append(m.list.chunks, make([]T, 0, listChunk))
			m.owned = append(m.owned, m.epoch)
		}
		m.list.n++
	}
	if m.owned[k] != m.epoch && (k != m.tail || i%listChunk < m.tailLen) {
		m.list.chunks[k] = append(make([]T, 0, listChunk), m.list.chunks[k]...)
		m.owned[k] = m.epoch
	}
	c := m.list.chunks[k]
	if j := i % listChunk; j == len(c) {
		m.list.chunks[k] = append(c, v)
	} else {
		c[j] = v
	}
}

// share returns the List as it is; later sets do not change it.
func (m *mirror[T]) share() List[T] {
	m.epoch++
	if k := len(m.list.chunks) - 1; k >= 0 {
		m.tail, m.tailLen = k, len(m.list.chunks[k])
	}
	return List[T]{chunks: slices.Clone(m.list.chunks), n: m.list.n}
}
