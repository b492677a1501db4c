package overlay

// growing is an append-mostly slice that copies of a Model share without
// copying it: a copy appends in place only while no other copy has
// appended past it (tip holds the length of the longest), else it copies
// first. So the old Model a SetData returned from stays valid.
type growing[T any] struct {
	s   []T
	tip *int
}

// append returns g with vs appended.
func (g growing[T]) append(vs ...T) growing[T] {
	if g.tip == nil || *g.tip != len(g.s) {
		s := make([]T, len(g.s), 2*len(g.s)+len(vs))
		copy(s, g.s)
		g.s, g.tip = s, new(int)
	}
	g.s = append(g.s, vs...)
	*g.tip = len(g.s)
	return g
}

// truncate returns g's first n values; the next append copies them.
func (g growing[T]) truncate(n int) growing[T] {
	g.s = g.s[:n:n]
	return g
}
