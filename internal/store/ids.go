package store

import "github.com/mcptrail/mcptrail/internal/capture"

// idSpace is where a requester's ids live: each direction of each
// connection has its own (spec 7), and an id is its raw JSON token, so 1
// and "1" differ.
type idSpace struct {
	dir  capture.Dir
	conn string
}

// ids maps each id space's raw ids to the latest call that used them.
// Answered calls stay, so a second answer is recognised as a duplicate.
type ids struct {
	spaces map[idSpace]map[string]int
	// last caches the space most recently used in each direction: on stdio
	// there is one connection, so lookups hash only the id.
	last [2]struct {
		conn string
		m    map[string]int
	}
}

func newIDs() ids { return ids{spaces: make(map[idSpace]map[string]int)} }

// space returns the id map of (dir, conn), creating it when create is set;
// nil when it does not exist.
func (t *ids) space(dir capture.Dir, conn string, create bool) map[string]int {
	c := &t.last[dirIndex(dir)]
	if c.m != nil && c.conn == conn {
		return c.m
	}
	k := idSpace{dir, conn}
	m, ok := t.spaces[k]
	if !ok {
		if !create {
			return nil
		}
		m = make(map[string]int)
		t.spaces[k] = m
	}
	c.conn, c.m = conn, m
	return m
}

// lookup returns the latest call with id in (dir, conn).
func (t *ids) lookup(dir capture.Dir, conn, id string) (int, bool) {
	idx, ok := t.space(dir, conn, false)[id]
	return idx, ok
}

// set makes call the latest with id in (dir, conn).
func (t *ids) set(dir capture.Dir, conn, id string, call int) {
	t.space(dir, conn, true)[id] = call
}
