package store

import (
	"encoding/binary"
	"encoding/hex"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// callTable stores calls packed (callset.go) in fixed-size blocks, so that
// adding one never copies the others. The store changes a call through the
// *Call that add and at hand out: the call is unpacked into it and packed
// back by flush, which Ingest calls after each record, so such a pointer is
// valid only while one record is ingested (Change.Call's contract). It also holds what
// the store keeps about a call only while it is pending: the arguments of a
// retryable request, compared if its answer is input_required (spec 2.7).
// Nothing else of the request is retained, and the arguments go as soon as
// the call is answered.
type callTable struct {
	calls Calls
	names nameTable
	// hot holds the calls unpacked while a record is ingested, so that the
	// store can change them through pointers; flush packs them back.
	hot   []hotCall
	spare []*Call
	// tracked has bit i set while call i, a pending client tools/call,
	// prompts/get or resources/read, is tracked; args holds its arguments,
	// except absent or `{}` arguments (their key is "{}" either way), so
	// that a pending call without arguments costs one bit.
	tracked []uint64
	args    pendingArgs
	// owned[b] equals epoch while block b belongs to the table alone.
	// Every block that exists when a snapshot is taken is shared with it
	// (epoch moves on), and flush copies a shared block before changing a
	// call in it, so a snapshot costs a block per block changed since.
	owned []uint32
	epoch uint32
	// tail and tailLen are the last block and its length when the last
	// snapshot was taken: calls added to it since are not shared.
	tail, tailLen int
	// roll keeps the aggregates snapshots derive from the calls (rollup.go),
	// updated as each changed call is packed.
	roll rollup
	// open, when non-nil (Options.Forget), holds the calls not forgotten
	// yet, unpacked, in place of calls, names and roll, which stay empty;
	// count is the number of calls ever added, touched the calls added or
	// read since takeTouched, and trackedSet replaces tracked.
	open       map[int]*Call
	count      int
	touched    []int
	trackedSet map[int]struct{}
}

// forgetting makes the table keep only the calls not forgotten
// (Options.Forget); it must be called before the first add.
func (t *callTable) forgetting() {
	t.open, t.trackedSet = make(map[int]*Call), make(map[int]struct{})
}

// forget drops call i for good (Options.Forget), with its arguments.
func (t *callTable) forget(i int) {
	delete(t.open, i)
	delete(t.trackedSet, i)
	t.args.take(i)
}

// takeTouched returns the calls added or read since the last call.
func (t *callTable) takeTouched() []int {
	out := t.touched
	t.touched = t.touched[:0]
	return out
}

// hotCall is a call unpacked for changing, and its packed form before
// (fresh for a call just added, which had none).
type hotCall struct {
	c     *Call
	was   packed
	fresh bool
}

// add appends c and returns it, valid until the next flush.
func (t *callTable) add(c Call) *Call {
	if t.open != nil {
		c.Index = t.count
		t.count++
		p := &c
		t.open[c.Index] = p
		t.touched = append(t.touched, c.Index)
		return p
	}
	t.calls.add()
	if len(t.owned) < len(t.calls.blocks) {
		t.owned = append(t.owned, t.epoch)
	}
	c.Index = t.calls.n - 1
	p := t.checkout(c, packed{})
	t.hot[len(t.hot)-1].fresh = true
	return p
}

// at returns call i, valid (and changed through it) until the next flush;
// nil when it was forgotten (Options.Forget).
func (t *callTable) at(i int) *Call {
	if t.open != nil {
		p := t.open[i]
		if p != nil {
			t.touched = append(t.touched, i)
		}
		return p
	}
	for _, h := range t.hot {
		if h.c.Index == i {
			return h.c
		}
	}
	p := &t.calls.blocks[i/blockSize][i%blockSize]
	return t.checkout(t.calls.names.unpack(i, p), *p)
}

func (t *callTable) checkout(c Call, was packed) *Call {
	var p *Call
	if n := len(t.spare); n > 0 {
		p, t.spare = t.spare[n-1], t.spare[:n-1]
	} else {
		p = new(Call)
	}
	*p = c
	t.hot = append(t.hot, hotCall{c: p, was: was})
	return p
}

// flush packs the calls changed since the last flush back into the table,
// copying a block a snapshot shares before changing it.
func (t *callTable) flush() {
	if t.open != nil {
		return // the calls are kept unpacked
	}
	for i := range t.hot {
		h := &t.hot[i]
		now := t.names.pack(h.c, &h.was)
		t.spare = append(t.spare, h.c)
		if !h.fresh && now == h.was {
			continue
		}
		b := h.c.Index / blockSize
		if t.owned[b] != t.epoch && (b != t.tail || h.c.Index%blockSize < t.tailLen) {
			t.calls.blocks[b] = append(make([]packed, 0, blockSize), t.calls.blocks[b]...)
			t.owned[b] = t.epoch
		}
		t.calls.blocks[b][h.c.Index%blockSize] = now
		t.roll.update(h.c.Index, &h.was, &now, h.fresh, t.names.list)
	}
	clear(t.hot)
	t.hot = t.hot[:0]
	t.calls.names = t.names.list
}

// len returns the number of calls.
func (t *callTable) len() int {
	if t.open != nil {
		return t.count
	}
	return t.calls.n
}

// track keeps what pairing needs of the arguments of pending retryable
// call i: a copy, or for arguments over maxArgs bytes their argsKey behind
// keyMark, so that a pending call with a huge argument holds no copy of it.
func (t *callTable) track(i int, args jsontext.Value) {
	t.mark(i)
	switch {
	case len(args) == 0 || string(args) == "{}":
		return
	case len(args) > keptArgs:
		key := make(jsontext.Value, 0, len(keyMark)+len(canonHashMark)+argsSumSize)
		t.args.put(i, appendArgsKey(append(key, keyMark...), args))
		return
	}
	t.args.put(i, append(jsontext.Value{}, args...))
}

// mark records that call i is tracked.
func (t *callTable) mark(i int) {
	if t.trackedSet != nil {
		t.trackedSet[i] = struct{}{}
		return
	}
	if w := i/64 + 1; len(t.tracked) < w {
		t.tracked = append(t.tracked, make([]uint64, w-len(t.tracked))...)
	}
	t.tracked[i/64] |= 1 << (i % 64)
}

// keptArgs is the size of arguments up to which a pending call keeps a
// copy of them (its key is made only if a retry needs it); past it, the
// call keeps the key, at most 133 bytes (hashedArgs), since 100,000 calls
// in flight with a kilobyte of arguments each would hold 100 MB.
const keptArgs = hashedArgs

// maxArgs is the size of arguments above which retries compare them by
// hash, byte for byte, instead of by canonical form: canonicalizing a huge
// value would cost several times its size.
const maxArgs = 64 << 10

// keyMark starts a tracked argsKey; no JSON value starts with it.
const keyMark = "\x00key:"

// argsKey is what retries compare of raw arguments: their canonical form
// (so that key order and number spelling do not matter), the argsSum of
// that form when it is longer than hashedArgs bytes, or past maxArgs bytes
// the argsSum of the bytes themselves. The first two depend only on the
// canonical form, so two arguments get the same key exactly when their
// canonical forms are equal (but for a 2^-128 chance), however long their
// bytes.
func argsKey(raw jsontext.Value) string {
	if len(raw) > maxArgs {
		sum := argsSum(raw)
		return "hash:" + hex.EncodeToString(sum[:])
	}
	if len(raw) > hashedArgs && isCanonical(raw) {
		// Its canonical form is itself: hash it without the copy.
		sum := argsSum(raw)
		return canonHashMark + string(sum[:])
	}
	return canonArgsKey(raw)
}

// canonArgsKey is argsKey of arguments within maxArgs: their canonical
// form, or its hash past hashedArgs bytes.
func canonArgsKey(raw jsontext.Value) string {
	c := mcp.CanonicalArguments(raw)
	if len(c) <= hashedArgs {
		return c
	}
	// The digest's bytes, not hex: keys are only compared, and a pending
	// call keeps this one (a NUL starts no JSON text, so no canonical form
	// can equal it).
	sum := argsSum([]byte(c))
	return canonHashMark + string(sum[:])
}

// canonHashMark starts the argsKey that is the hash of a canonical form.
const canonHashMark = "\x00hash:"

// argsSeeds key argsSum: random for each process, made once at start and
// never changed, so that nobody can craft arguments whose sums collide.
// Keys are only compared within one process; none is ever written.
var argsSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// argsSumSize is the length of an argsSum.
const argsSumSize = 16

// argsSum is a 128-bit keyed hash of b: two independent 64-bit maphash
// sums. Keys are compared in memory only, so a keyed hash does what a
// SHA-256 did at a quarter of its cost (a pending call's arguments are
// hashed whenever they pass hashedArgs, answered or not).
func argsSum(b []byte) [argsSumSize]byte {
	var sum [argsSumSize]byte
	binary.LittleEndian.PutUint64(sum[:8], maphash.Bytes(argsSeeds[0], b))
	binary.LittleEndian.PutUint64(sum[8:], maphash.Bytes(argsSeeds[1], b))
	return sum
}

// appendArgsKey appends argsKey(raw) to dst, without a copy of the key
// when raw is already in canonical form (and past hashedArgs, within
// maxArgs): what track keeps of most large arguments, in one allocation.
func appendArgsKey(dst []byte, raw jsontext.Value) []byte {
	switch {
	case len(raw) > maxArgs:
		return append(dst, argsKey(raw)...)
	case len(raw) > hashedArgs && isCanonical(raw):
		sum := argsSum(raw)
		return append(append(dst, canonHashMark...), sum[:]...)
	}
	return append(dst, canonArgsKey(raw)...)
}

// hashedArgs is the length of a canonical form past which argsKey is its
// hash (40 bytes) rather than the form itself.
const hashedArgs = 128

// trackedKey is the argsKey of what track kept.
func trackedKey(kept jsontext.Value) string {
	if k, ok := strings.CutPrefix(string(kept), keyMark); ok {
		return k
	}
	return argsKey(kept)
}

// untrack forgets call i's arguments and returns them (nil when it had
// none or `{}`), reporting whether the call was tracked.
func (t *callTable) untrack(i int) (jsontext.Value, bool) {
	if t.trackedSet != nil {
		if _, ok := t.trackedSet[i]; !ok {
			return nil, false
		}
		delete(t.trackedSet, i)
		args, _ := t.args.take(i)
		return args, true
	}
	if i/64 >= len(t.tracked) || t.tracked[i/64]&(1<<(i%64)) == 0 {
		return nil, false
	}
	t.tracked[i/64] &^= 1 << (i % 64)
	args, _ := t.args.take(i)
	return args, true
}

// export returns the calls as they are now. The result shares the
// table's blocks, which the table copies before it changes them again.
func (t *callTable) export() Calls {
	t.flush()
	t.epoch++
	if k := len(t.calls.blocks) - 1; k >= 0 {
		t.tail, t.tailLen = k, len(t.calls.blocks[k])
	}
	return Calls{
		blocks: slices.Clone(t.calls.blocks),
		n:      t.calls.n,
		names:  t.calls.names[:len(t.calls.names):len(t.calls.names)],
	}
}

// finish hands the calls over and empties the table. The store must not
// add to the table afterwards.
func (t *callTable) finish() Calls {
	t.flush()
	out := t.calls
	t.calls, t.tracked, t.args = Calls{}, nil, pendingArgs{}
	return out
}
