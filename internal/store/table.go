package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/mcp"
)

// callTable stores calls in fixed-size blocks, so that adding one never
// copies the others and pointers to entries stay valid. It also holds what
// the store keeps about a call only while it is pending: the arguments of a
// retryable request, compared if its answer is input_required (spec 2.7).
// Nothing else of the request is retained, and the arguments go as soon as
// the call is answered.
type callTable struct {
	calls Calls
	// tracked has bit i set while call i, a pending client tools/call,
	// prompts/get or resources/read, is tracked; args holds its arguments,
	// except absent or `{}` arguments (their key is "{}" either way), so
	// that a pending call without arguments costs one bit.
	tracked []uint64
	args    map[int]jsontext.Value
}

// add appends c and returns it.
func (t *callTable) add(c Call) *Call {
	p := t.calls.add()
	*p = c
	return p
}

// at returns call i.
func (t *callTable) at(i int) *Call { return t.calls.At(i) }

// len returns the number of calls.
func (t *callTable) len() int { return t.calls.n }

// track keeps what pairing needs of the arguments of pending retryable
// call i: a copy, or for arguments over maxArgs bytes their argsKey behind
// keyMark, so that a pending call with a huge argument holds no copy of it.
func (t *callTable) track(i int, args jsontext.Value) {
	if w := i/64 + 1; len(t.tracked) < w {
		t.tracked = append(t.tracked, make([]uint64, w-len(t.tracked))...)
	}
	t.tracked[i/64] |= 1 << (i % 64)
	switch {
	case len(args) == 0 || string(args) == "{}":
		return
	case t.args == nil:
		t.args = make(map[int]jsontext.Value)
	}
	if len(args) > maxArgs {
		t.args[i] = jsontext.Value(keyMark + argsKey(args))
		return
	}
	t.args[i] = append(jsontext.Value{}, args...)
}

// maxArgs is the size of arguments above which retries compare them by
// hash, byte for byte, instead of by canonical form: canonicalizing a huge
// value would cost several times its size.
const maxArgs = 64 << 10

// keyMark starts a tracked argsKey; no JSON value starts with it.
const keyMark = "\x00key:"

// argsKey is what retries compare of raw arguments: their canonical form
// (so that key order and number spelling do not matter), or past maxArgs
// bytes the SHA-256 of the bytes themselves.
func argsKey(raw jsontext.Value) string {
	if len(raw) <= maxArgs {
		return mcp.CanonicalArguments(raw)
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

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
	if i/64 >= len(t.tracked) || t.tracked[i/64]&(1<<(i%64)) == 0 {
		return nil, false
	}
	t.tracked[i/64] &^= 1 << (i % 64)
	args, ok := t.args[i]
	if ok {
		delete(t.args, i)
	}
	return args, true
}

// export returns a copy of the calls.
func (t *callTable) export() Calls { return t.calls.clone() }

// finish hands the calls over and empties the table. The store must not
// add to the table afterwards.
func (t *callTable) finish() Calls {
	out := t.calls
	t.calls, t.tracked, t.args = Calls{}, nil, nil
	return out
}
