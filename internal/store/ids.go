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
// of the room of a string key; every other token by its text. Clients
// mostly count their ids up from 0 or 1, so a small non-negative id is
// kept in dense, indexed by its value (call index + 1, 0 for none): a
// slice read instead of a hash lookup that misses the cache, and half the
// room. dense grows only while the ids it would cover are at least a
// quarter used (denseFits), so sparse or random ids stay in nums.
type idMap struct {
	dense []int
	nums  map[int64]int
	strs  map[string]int
	// used counts the ids in dense.
	used int
}

// getNum returns the call of the integer id n.
func (m *idMap) getNum(n int64) (int, bool) {
	if n >= 0 && n < int64(len(m.dense)) {
		if idx := m.dense[n]; idx != 0 {
			return idx - 1, true
		}
		return 0, false
	}
	idx, ok := m.nums[n]
	return idx, ok
}

// setNum makes call the call of the integer id n.
func (m *idMap) setNum(n int64, call int) {
	if n >= int64(len(m.dense)) && m.denseFits(n) {
		m.grow(n)
	}
	if n < 0 || n >= int64(len(m.dense)) {
		m.nums[n] = call
		return
	}
	if m.dense[n] == 0 {
		m.used++
	}
	m.dense[n] = call + 1
}

// denseFits reports whether dense may grow to hold id n: it then covers at
// most two slots per id it holds (counting n and the ids of nums it could
// take over), past minDense.
func (m *idMap) denseFits(n int64) bool {
	return n < m.denseBound()
}

// denseBound is the size dense may grow to.
func (m *idMap) denseBound() int64 {
	const minDense = 1024
	return 2*int64(m.used+len(m.nums)+1) + minDense
}

// grow makes dense cover id n, moving the ids of nums it now covers.
func (m *idMap) grow(n int64) {
	size := max(int(n)+1, int(min(2*int64(len(m.dense)), m.denseBound())), 64)
	old := len(m.dense)
	m.dense = append(m.dense, make([]int, size-old)...)
	for k, call := range m.nums {
		if k >= int64(old) && k < int64(size) {
			m.dense[k] = call + 1
			m.used++
			delete(m.nums, k)
		}
	}
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
		return m.getNum(n)
	}
	idx, ok := m.strs[id]
	return idx, ok
}

// set makes call the latest with id in (dir, conn).
func (t *ids) set(dir capture.Dir, conn, id string, call int) {
	m := t.space(dir, conn, true)
	if n, ok := intToken(id); ok {
		m.setNum(n, call)
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

// forget removes id in (dir, conn) when it still names call, and the
// space once it is empty (Options.Forget), so that the ids of answered
// calls are not kept.
func (t *ids) forget(dir capture.Dir, conn, id string, call int) {
	m := t.space(dir, conn, false)
	if m == nil {
		return
	}
	if n, ok := intToken(id); ok {
		m.forgetNum(n, call)
	} else if idx, ok := m.strs[id]; ok && idx == call {
		delete(m.strs, id)
	}
	if m.used == 0 && len(m.nums) == 0 && len(m.strs) == 0 {
		delete(t.spaces, idSpace{dir, conn})
		t.last[dirIndex(dir)] = struct {
			conn string
			m    *idMap
		}{}
	}
}

// forgetNum removes the integer id n when it names call.
func (m *idMap) forgetNum(n int64, call int) {
	if n >= 0 && n < int64(len(m.dense)) {
		if m.dense[n] == call+1 {
			m.dense[n] = 0
			m.used--
		}
		return
	}
	if idx, ok := m.nums[n]; ok && idx == call {
		delete(m.nums, n)
	}
}
