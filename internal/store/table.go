package store

import "github.com/go-json-experiment/json/jsontext"

// blockSize is how many calls one block of a callTable holds.
const blockSize = 4096

// entry is a call plus what the store keeps about it only while it is
// pending: the arguments of a retryable request, compared if its answer is
// input_required (spec 2.7). Nothing else of the request is retained.
type entry struct {
	Call
	args    jsontext.Value
	tracked bool // a pending client tools/call, prompts/get or resources/read
}

// callTable stores calls in fixed-size blocks, so that adding one never
// copies the others and pointers to entries stay valid.
type callTable struct {
	blocks [][]entry
	n      int
}

// add appends c and returns its entry.
func (t *callTable) add(c Call) *entry {
	if t.n%blockSize == 0 {
		t.blocks = append(t.blocks, make([]entry, 0, blockSize))
	}
	b := &t.blocks[len(t.blocks)-1]
	*b = append(*b, entry{Call: c})
	t.n++
	return &(*b)[len(*b)-1]
}

// at returns entry i.
func (t *callTable) at(i int) *entry { return &t.blocks[i/blockSize][i%blockSize] }

// len returns the number of calls.
func (t *callTable) len() int { return t.n }

// export copies the calls into one slice.
func (t *callTable) export() []Call {
	out := make([]Call, 0, t.n)
	for _, b := range t.blocks {
		for i := range b {
			out = append(out, b[i].Call)
		}
	}
	return out
}
