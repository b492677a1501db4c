package inspector

import (
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

// parseJSON builds the tree of src, one JSON value. It never panics: input that
// is not exactly one JSON value gives an error.
func parseJSON(src string) (*tree, error) {
	dec := jsontext.NewDecoder(strings.NewReader(src),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	// Names and values without escapes are substrings of the body, so a
	// 50,000-element array costs no allocation per string.
	b := builder{t: &tree{nodes: make([]node, 0, nodeEstimate(src))}, src: src}
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		start := b.off
		b.off = dec.InputOffset()
		if err := b.token(tok, start); err != nil {
			return nil, err
		}
	}
	if len(b.t.nodes) == 0 || len(b.stack) != 0 {
		return nil, errors.New("not one complete JSON value")
	}
	b.t.finish()
	return b.t, nil
}

// nodeEstimate is about how many nodes src holds: one per comma and per
// container (exact when no string holds those bytes), at most one per 8
// bytes, so the node slice is not copied as it grows.
func nodeEstimate(src string) int {
	n := strings.Count(src, ",") + strings.Count(src, "{") + strings.Count(src, "[") + 1
	return min(n, len(src)/8+16)
}

// builder turns a token stream into nodes with an explicit stack.
type builder struct {
	t     *tree
	stack []int32 // open containers
	name  string  // the pending member name
	named bool    // a member name was read and awaits its value
	src   string  // the body
	off   int64   // the offset after the last token
}

// text is token tok's text: a string's contents, decoded, or a literal.
// The token's bytes are src[start:end] after the separators before it; a
// literal, or a string without escapes, is a substring of src.
func (b *builder) text(tok jsontext.Token, start, end int64) string {
	if start < 0 || end > int64(len(b.src)) || start > end {
		return tok.String()
	}
	raw := strings.TrimLeft(b.src[start:end], " \t\r\n,:")
	if raw == "" {
		return tok.String()
	}
	if raw[0] != '"' {
		return raw
	}
	if len(raw) >= 2 && raw[len(raw)-1] == '"' && !strings.ContainsRune(raw, '\\') {
		return raw[1 : len(raw)-1]
	}
	return tok.String()
}

// token adds one token, which ends at b.off, to the tree.
func (b *builder) token(tok jsontext.Token, start int64) error {
	kind := byte(tok.Kind())
	if kind == '}' || kind == ']' {
		b.close()
		return nil
	}
	if len(b.stack) > 0 && !b.named && b.t.nodes[b.stack[len(b.stack)-1]].kind == kindObject {
		if kind != kindString {
			return fmt.Errorf("object member name is a %c", kind)
		}
		b.name, b.named = b.text(tok, start, b.off), true
		return nil
	}
	if len(b.stack) == 0 && len(b.t.nodes) > 0 {
		return errors.New("more than one JSON value")
	}
	b.add(kind, b.text(tok, start, b.off))
	return nil
}

// add appends a value node under the open container; text is a scalar's.
func (b *builder) add(kind byte, text string) {
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
		n.text = text
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
