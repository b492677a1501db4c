package store

import (
	"io"
	"slices"
)

// arena holds frame lines in memory for Options.KeepFrames, in chunks that
// are only appended to, so that a snapshot can read what was written
// before it while the store writes more.
type arena struct {
	chunks [][]byte
	n      int64
}

// arenaChunk is the size of an arena chunk.
const arenaChunk = 1 << 20

// Write appends p; it never fails.
func (a *arena) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := len(a.chunks) - 1
		if k < 0 || len(a.chunks[k]) == cap(a.chunks[k]) {
			a.chunks = append(a.chunks, make([]byte, 0, arenaChunk))
			k++
		}
		m := min(len(p), cap(a.chunks[k])-len(a.chunks[k]))
		a.chunks[k] = append(a.chunks[k], p[:m]...)
		p = p[m:]
	}
	a.n += int64(n)
	return n, nil
}

// view returns the bytes written so far as an io.ReaderAt.
func (a *arena) view() io.ReaderAt {
	return &arenaView{chunks: slices.Clone(a.chunks), n: a.n}
}

// arenaView is an arena as it was when view was called.
type arenaView struct {
	chunks [][]byte
	n      int64
}

// ReadAt reads from the bytes the view holds.
func (v *arenaView) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= v.n {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off < v.n {
		c := v.chunks[off/arenaChunk]
		i := int(off % arenaChunk)
		m := copy(p[n:], c[i:min(len(c), i+int(v.n-off))])
		n += m
		off += int64(m)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
