package overlay

import "testing"

// position is where a list overlay's cursor is.
func (l list[R]) position() cursor { return l.cur }

// inside is what the tests read of any list overlay.
type inside interface {
	Overlay
	count() int
	position() cursor
	Selected() int
}

// in returns the list overlay m is, failing t when it is none.
func in(t testing.TB, m Overlay) inside {
	t.Helper()
	l, ok := m.(inside)
	if !ok {
		t.Fatalf("%T is no list overlay", m)
	}
	return l
}

// rowsOf returns the rows of m, a list overlay of rows R.
func rowsOf[R rows[R]](t testing.TB, m Overlay) R {
	t.Helper()
	l, ok := m.(list[R])
	if !ok {
		t.Fatalf("%T is no list of %T", m, l.r)
	}
	return l.r
}
