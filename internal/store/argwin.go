package store

import "github.com/go-json-experiment/json/jsontext"

// pendingArgs holds what tracked calls keep of their arguments, by call
// index: the callTable's args. Calls are tracked as they are added (in
// ascending index order) and mostly answered soon after, so the recent
// ones sit in a window, slots lo to hi in blocks of argBlock, where
// storing and taking one is a slice access instead of a hash lookup that
// misses the cache (the map was a quarter of a 200k-frame ingest), and
// growing it copies nothing. A call left pending while the window moves
// on goes to far, so the window holds at least one value per four slots
// past minWindow.
type pendingArgs struct {
	// blocks[0][0] is the slot of call start; slots before lo are empty.
	blocks     [][]jsontext.Value
	start      int
	lo, hi     int
	live       int // the values in the window
	far        map[int]jsontext.Value
	spareBlock []jsontext.Value
}

// argBlock is the number of slots of a block; minWindow the window size
// below which it is never thinned.
const (
	argBlock  = 1024
	minWindow = 256
)

func (p *pendingArgs) slot(i int) *jsontext.Value {
	k := i - p.start
	return &p.blocks[k/argBlock][k%argBlock]
}

// put keeps v (not nil) for call i.
func (p *pendingArgs) put(i int, v jsontext.Value) {
	switch {
	case i < p.lo:
		p.putFar(i, v)
		return
	case i < p.hi:
		s := p.slot(i)
		if *s == nil {
			p.live++
		}
		*s = v
		return
	}
	if p.lo == p.hi { // empty: start afresh at i
		p.dropBlocks(len(p.blocks))
		p.start, p.lo = i, i
	}
	for len(p.blocks)*argBlock < i+1-p.start {
		b := p.spareBlock
		if b == nil {
			b = make([]jsontext.Value, argBlock)
		}
		p.spareBlock, p.blocks = nil, append(p.blocks, b)
	}
	p.hi = i + 1
	*p.slot(i) = v
	p.live++
	if n := p.hi - p.lo; n > minWindow && n > 4*p.live {
		p.thin()
	}
}

func (p *pendingArgs) putFar(i int, v jsontext.Value) {
	if p.far == nil {
		p.far = make(map[int]jsontext.Value)
	}
	p.far[i] = v
}

// thin moves the values of the window's older half to far.
func (p *pendingArgs) thin() {
	mid := p.lo + (p.hi-p.lo)/2
	for i := p.lo; i < mid; i++ {
		if s := p.slot(i); *s != nil {
			p.putFar(i, *s)
			*s = nil
			p.live--
		}
	}
	p.lo = mid
	p.trim()
}

// trim drops the window's leading empty slots, and the blocks they empty.
func (p *pendingArgs) trim() {
	for p.lo < p.hi && *p.slot(p.lo) == nil {
		p.lo++
	}
	if n := (p.lo - p.start) / argBlock; n > 0 {
		p.dropBlocks(n)
	}
}

// dropBlocks drops the first n blocks (all of whose slots are empty),
// keeping one to reuse.
func (p *pendingArgs) dropBlocks(n int) {
	if n > 0 {
		p.spareBlock = p.blocks[0]
	}
	clear(p.blocks[:n])
	p.blocks = p.blocks[n:]
	p.start += n * argBlock
}

// get returns what call i keeps, nil for nothing.
func (p *pendingArgs) get(i int) jsontext.Value {
	if i >= p.lo && i < p.hi {
		return *p.slot(i)
	}
	return p.far[i]
}

// take returns what call i keeps and forgets it.
func (p *pendingArgs) take(i int) (jsontext.Value, bool) {
	if i >= p.lo && i < p.hi {
		s := p.slot(i)
		v := *s
		if v == nil {
			return nil, false
		}
		*s = nil
		p.live--
		p.trim()
		return v, true
	}
	v, ok := p.far[i]
	if ok {
		delete(p.far, i)
	}
	return v, ok
}

// len returns the number of calls that keep something.
func (p *pendingArgs) len() int { return p.live + len(p.far) }
