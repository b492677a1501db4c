package store

import (
	"time"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// Calls is a snapshot's calls in index order. They are held compactly, as
// the store keeps them (about half the size of a Call: strings are indexes
// into a table of names), in fixed-size blocks, so that a session's calls
// are never copied into one slice: Final hands the store's blocks over.
// The zero value is empty.
type Calls struct {
	blocks [][]packed
	n      int
	// names is the table the packed strings index; the store only appends
	// to it, so a snapshot's view of it never changes.
	names names
}

// blockSize is how many calls one block holds: small, because a snapshot
// shares the store's blocks and the store copies one before changing it.
const blockSize = 128

// packed is a call as the store keeps it; its index is its position.
type packed struct {
	id                                 wire.ID
	start, end                         time.Time
	requestSeq, responseSeq, cancelSeq uint64
	durationMS                         float64
	err                                *CallError
	operation, round, parent           int32
	dir, conn, method, target, era     name
	protocolVersion, status, result    name
	attribution                        name
	late, negotiation                  bool
}

// name indexes a table of names; 0 is "".
type name uint32

// CallsOf returns Calls holding a copy of calls (for tests and views built
// from a slice); each call's Index is its position.
func CallsOf(calls []Call) Calls {
	var t nameTable
	var cs Calls
	for i := range calls {
		cs.add()
		cs.blocks[i/blockSize][i%blockSize] = t.pack(&calls[i], &packed{})
	}
	cs.names = t.list
	return cs
}

// Len returns the number of calls.
func (cs *Calls) Len() int { return cs.n }

// At returns a copy of call i. It panics when i is out of range.
func (cs *Calls) At(i int) Call {
	if i < 0 || i >= cs.n {
		panic("store: call index out of range")
	}
	return cs.names.unpack(i, &cs.blocks[i/blockSize][i%blockSize])
}

// Slice returns a copy of the calls as one slice.
func (cs *Calls) Slice() []Call {
	out := make([]Call, cs.n)
	for i := range out {
		out[i] = cs.At(i)
	}
	return out
}

// add appends a zero call.
func (cs *Calls) add() {
	if cs.n%blockSize == 0 {
		cs.blocks = append(cs.blocks, make([]packed, 0, blockSize))
	}
	b := &cs.blocks[len(cs.blocks)-1]
	*b = append(*b, packed{})
	cs.n++
}

// clone returns a copy that shares no block with cs.
func (cs *Calls) clone() Calls {
	out := Calls{blocks: make([][]packed, len(cs.blocks)), n: cs.n, names: cs.names[:len(cs.names):len(cs.names)]}
	for i, b := range cs.blocks {
		out.blocks[i] = append(make([]packed, 0, blockSize), b...)
	}
	return out
}

// names is a read-only view of a nameTable's list.
type names []string

// str returns name n.
func (ns names) str(n name) string {
	if n == 0 {
		return ""
	}
	return ns[n]
}

func (ns names) unpack(i int, p *packed) Call {
	return Call{
		Index: i, Dir: capture.Dir(ns.str(p.dir)), Conn: ns.str(p.conn), ID: p.id, Method: ns.str(p.method), Target: ns.str(p.target),
		Era: ns.str(p.era), ProtocolVersion: ns.str(p.protocolVersion), RequestSeq: p.requestSeq, ResponseSeq: p.responseSeq,
		Start: p.start, End: p.end, DurationMS: p.durationMS, Status: ns.str(p.status), ResultType: ns.str(p.result),
		Error: p.err, CancelSeq: p.cancelSeq, Late: p.late, Operation: int(p.operation), Round: int(p.round),
		Parent: int(p.parent), Attribution: ns.str(p.attribution), Negotiation: p.negotiation,
	}
}

// nameTable holds each distinct name once, up to maxInterned of them;
// past that, names are appended without being looked up, so a session of
// unique names costs what a string each would.
type nameTable struct {
	list names
	idx  map[string]name
}

func (t *nameTable) name(s string) name {
	if s == "" {
		return 0
	}
	if n, ok := t.idx[s]; ok {
		return n
	}
	if len(t.list) == 0 {
		t.list = append(t.list, "")
	}
	n := name(len(t.list))
	t.list = append(t.list, s)
	if len(t.idx) < maxInterned {
		if t.idx == nil {
			t.idx = make(map[string]name)
		}
		t.idx[s] = n
	}
	return n
}

// pack returns c packed; was is its packed form before it was unpacked
// (zero for a new call), whose names are reused where unchanged, so that
// packing a call again looks up only the names that changed.
func (t *nameTable) pack(c *Call, was *packed) packed {
	return packed{
		id: c.ID, start: c.Start, end: c.End, requestSeq: c.RequestSeq, responseSeq: c.ResponseSeq,
		cancelSeq: c.CancelSeq, durationMS: c.DurationMS, err: c.Error, operation: int32(c.Operation),
		round: int32(c.Round), parent: int32(c.Parent), dir: t.reuse(string(c.Dir), was.dir),
		conn: t.reuse(c.Conn, was.conn), method: t.reuse(c.Method, was.method), target: t.reuse(c.Target, was.target),
		era: t.reuse(c.Era, was.era), protocolVersion: t.reuse(c.ProtocolVersion, was.protocolVersion),
		status: t.reuse(c.Status, was.status), result: t.reuse(c.ResultType, was.result),
		attribution: t.reuse(c.Attribution, was.attribution), late: c.Late, negotiation: c.Negotiation,
	}
}

// reuse returns n when it names s, else the name of s.
func (t *nameTable) reuse(s string, n name) name {
	if t.list.str(n) == s {
		return n
	}
	return t.name(s)
}
