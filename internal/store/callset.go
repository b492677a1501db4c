package store

// Calls is a snapshot's calls in index order. They are held in fixed-size
// blocks, as the store collects them, so that a session's calls are never
// copied into one slice: Final hands the store's blocks over, and a large
// session does not hold its calls twice. The zero value is empty.
type Calls struct {
	blocks [][]Call
	n      int
}

// blockSize is how many calls one block holds.
const blockSize = 4096

// CallsOf returns Calls holding a copy of calls (for tests and views built
// from a slice).
func CallsOf(calls []Call) Calls {
	var cs Calls
	for _, c := range calls {
		*cs.add() = c
	}
	return cs
}

// Len returns the number of calls.
func (cs *Calls) Len() int { return cs.n }

// At returns call i, which the caller must not modify (a snapshot is
// immutable). It panics when i is out of range.
func (cs *Calls) At(i int) *Call {
	if i < 0 || i >= cs.n {
		panic("store: call index out of range")
	}
	return &cs.blocks[i/blockSize][i%blockSize]
}

// Slice returns a copy of the calls as one slice.
func (cs *Calls) Slice() []Call {
	out := make([]Call, 0, cs.n)
	for _, b := range cs.blocks {
		out = append(out, b...)
	}
	return out
}

// add appends a zero call and returns it.
func (cs *Calls) add() *Call {
	if cs.n%blockSize == 0 {
		cs.blocks = append(cs.blocks, make([]Call, 0, blockSize))
	}
	b := &cs.blocks[len(cs.blocks)-1]
	*b = append(*b, Call{})
	cs.n++
	return &(*b)[len(*b)-1]
}

// clone returns a copy that shares no block with cs.
func (cs *Calls) clone() Calls {
	out := Calls{blocks: make([][]Call, len(cs.blocks)), n: cs.n}
	for i, b := range cs.blocks {
		out.blocks[i] = append(make([]Call, 0, blockSize), b...)
	}
	return out
}
