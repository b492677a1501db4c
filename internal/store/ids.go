package store

import (
	"strconv"

	"github.com/mcptrail/mcptrail/internal/capture"
)

// idSpace is where a requester's ids live: each direction of each
// connection has its own (spec 7), and an id is its raw JSON token, so 1
// and "1" differ.
type idSpace struct {
	dir  capture.Dir
	conn string
}

// idMap maps the raw ids of one space to calls. Integer tokens, by far
// the most common ids, are keyed by their value, which takes two thirds
// of the room of a string key; every other token by its text.
type idMap struct {
	nums map[int64]int
	strs map[string]int
}

// ids maps each id space's raw ids to the latest call that used them.
// Answered calls stay, so a second answer is recognised as a duplicate.
type ids struct {
	spaces map[idSpace]*idMap
	// last caches the space most recently used in each direction: on stdio
	// there is one connection, so lookups hash only the id.
	last [2]struct {
		conn string
		m    *idMap
	}
}

func newIDs() ids { return ids{spaces: make(map[idSpace]*idMap)} }

// space returns the id map of (dir, conn), creating it when create is set;
// nil when it does not exist.
func (t *ids) space(dir capture.Dir, conn string, create bool) *idMap {
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
		m = &idMap{nums: make(map[int64]int), strs: make(map[string]int)}
		t.spaces[k] = m
	}
	c.conn, c.m = conn, m
	return m
}

// lookup returns the latest call with id in (dir, conn).
func (t *ids) lookup(dir capture.Dir, conn, id string) (int, bool) {
	m := t.space(dir, conn, false)
	if m == nil {
		return 0, false
	}
	if n, ok := intToken(id); ok {
		idx, ok := m.nums[n]
		return idx, ok
	}
	idx, ok := m.strs[id]
	return idx, ok
}

// set makes call the latest with id in (dir, conn).
func (t *ids) set(dir capture.Dir, conn, id string, call int) {
	m := t.space(dir, conn, true)
	if n, ok := intToken(id); ok {
		m.nums[n] = call
		return
	}
	m.strs[id] = call
}

// intToken returns the value of a raw id written as an integer exactly as
// strconv writes it (no sign but a leading minus, no leading zero, no
// fraction or exponent), so that two tokens map to one key only when they
// are the same text.
func intToken(raw string) (int64, bool) {
	if raw == "" || len(raw) > 18 || raw == "-0" || (raw[0] == '0' && len(raw) > 1) || (len(raw) > 1 && raw[:2] == "-0") {
		return 0, false
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || raw[0] == '+' {
		return 0, false
	}
	return n, true
}
