package store

import "github.com/go-json-experiment/json/jsontext"

// pendingArgs holds what tracked calls keep of their arguments, by call
// index: the callTable's args. Calls are tracked as they are added (in
// ascending index order) and mostly answered soon after, so the recent
// ones sit in a window slice indexed by call index - base, where storing
// and taking one is a slice access instead of a hash lookup that misses
// the cache (the map was a quarter of a 200k-frame ingest). A call left
// pending while the window moves on goes to far, so the window holds at
// least one value per four slots past minWindow.
type pendingArgs struct {
	base int
	win  []jsontext.Value // nil: none
	live int              // the values in win
	far  map[int]jsontext.Value
}

// minWindow is the window size below which it is never thinned.
const minWindow = 256

// put keeps v (not nil) for call i.
func (p *pendingArgs) put(i int, v jsontext.Value) {
	switch {
	case i < p.base:
		p.putFar(i, v)
		return
	case i-p.base >= len(p.win):
		if len(p.win) == 0 {
			p.base = i
		}
		for len(p.win) < i-p.base {
			p.win = append(p.win, nil)
		}
		p.win = append(p.win, v)
	default:
		if p.win[i-p.base] == nil {
			p.live++
		}
		p.win[i-p.base] = v
		return
	}
	p.live++
	if len(p.win) > minWindow && len(p.win) > 4*p.live {
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
	half := len(p.win) / 2
	for k, v := range p.win[:half] {
		if v != nil {
			p.putFar(p.base+k, v)
			p.live--
		}
	}
	clear(p.win[:half]) // the array outlives the slots
	p.win, p.base = p.win[half:], p.base+half
	p.trim()
}

// trim drops the window's leading empty slots.
func (p *pendingArgs) trim() {
	for len(p.win) > 0 && p.win[0] == nil {
		p.win, p.base = p.win[1:], p.base+1
	}
}

// get returns what call i keeps, nil for nothing.
func (p *pendingArgs) get(i int) jsontext.Value {
	if i >= p.base && i-p.base < len(p.win) {
		return p.win[i-p.base]
	}
	return p.far[i]
}

// take returns what call i keeps and forgets it.
func (p *pendingArgs) take(i int) (jsontext.Value, bool) {
	if i >= p.base && i-p.base < len(p.win) {
		v := p.win[i-p.base]
		if v == nil {
			return nil, false
		}
		p.win[i-p.base] = nil
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
