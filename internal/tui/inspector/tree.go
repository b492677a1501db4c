package inspector

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Kinds of node. A container's kind is its opening bracket; a scalar's is
// the first byte of its JSON literal, as jsontext.Kind has them.
const (
	kindObject = '{'
	kindArray  = '['
	kindString = '"'
	kindNumber = '0'
	kindTrue   = 't'
	kindFalse  = 'f'
	kindNull   = 'n'
	kindText   = 'x' // one line of a frame that is not JSON
)

// node is one value of a body, in document order (pre-order): the flat
// form the line model, folding, search and paths all walk without
// recursion, so a body nested ten thousand deep costs no stack.
type node struct {
	kind byte
	// last reports whether the node is its parent's last member (no comma).
	last  bool
	named bool  // the node is an object member: key is its name
	depth int32 // 0 for the root
	// parent is the index of the enclosing container, -1 for the root.
	parent int32
	// index is the node's position in its parent array.
	index int32
	// end is, for a container, one past the index of its last descendant;
	// count is its number of members.
	end, count int32
	key        string // the member name, decoded
	// text is a scalar's value: the decoded string, or the literal of a
	// number, true, false or null; for kindText the escaped-to-be line.
	text string
}

// container reports whether n is an object or an array.
func (n *node) container() bool { return n.kind == kindObject || n.kind == kindArray }

// tree is a parsed body.
type tree struct {
	nodes []node
	// note says why the body is shown as text ("not JSON: ...").
	note string
}

// parseJSON builds the tree of one JSON value. It never panics: input that
// is not exactly one JSON value gives an error.
func parseJSON(raw []byte) (*tree, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	b := builder{t: &tree{nodes: make([]node, 0, 16)}}
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := b.token(tok); err != nil {
			return nil, err
		}
	}
	if len(b.t.nodes) == 0 || len(b.stack) != 0 {
		return nil, errors.New("not one complete JSON value")
	}
	b.t.finish()
	return b.t, nil
}

// builder turns a token stream into nodes with an explicit stack.
type builder struct {
	t     *tree
	stack []int32 // open containers
	name  string  // the pending member name
	named bool    // a member name was read and awaits its value
}

// token adds one token to the tree.
func (b *builder) token(tok jsontext.Token) error {
	kind := byte(tok.Kind())
	if kind == '}' || kind == ']' {
		b.close()
		return nil
	}
	if len(b.stack) > 0 && !b.named && b.t.nodes[b.stack[len(b.stack)-1]].kind == kindObject {
		if kind != kindString {
			return fmt.Errorf("object member name is a %c", kind)
		}
		b.name, b.named = tok.String(), true
		return nil
	}
	if len(b.stack) == 0 && len(b.t.nodes) > 0 {
		return errors.New("more than one JSON value")
	}
	b.add(kind, tok)
	return nil
}

// add appends a value node under the open container.
func (b *builder) add(kind byte, tok jsontext.Token) {
	n := node{kind: kind, parent: -1, named: b.named, key: b.name}
	b.name, b.named = "", false
	if len(b.stack) > 0 {
		p := b.stack[len(b.stack)-1]
		parent := &b.t.nodes[p]
		n.parent, n.depth, n.index = p, parent.depth+1, parent.count
		parent.count++
	}
	if kind == kindObject || kind == kindArray {
		b.stack = append(b.stack, int32(len(b.t.nodes)))
	} else {
		n.text = tok.String()
		n.end = int32(len(b.t.nodes)) + 1
	}
	b.t.nodes = append(b.t.nodes, n)
}

// close ends the innermost container.
func (b *builder) close() {
	top := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	b.t.nodes[top].end = int32(len(b.t.nodes))
}

// finish marks each node that is its parent's last member (no comma).
func (t *tree) finish() {
	for i := range t.nodes {
		n := &t.nodes[i]
		n.last = n.parent < 0 || n.index == t.nodes[n.parent].count-1
	}
}

// textTree shows s, a frame that is not JSON, line by line; note says why.
func textTree(s, note string) *tree {
	lines := strings.Split(s, "\n")
	t := &tree{nodes: make([]node, len(lines)), note: note}
	for i, l := range lines {
		t.nodes[i] = node{kind: kindText, parent: -1, last: true, text: l, end: int32(i + 1)}
	}
	return t
}
