package redact

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ohler55/ojg/jp"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/jsonraw"
	"github.com/mcptrail/mcptrail/internal/mcp"
	"github.com/mcptrail/mcptrail/internal/wire"
)

// errNotJSON ends a walk over bytes that are not exactly one JSON value.
var errNotJSON = errors.New("not a JSON value")

// ctx is what the walker knows about the value it is at.
type ctx struct {
	node  *pnode // the value's node in the path trie; nil when no path reaches here
	flags uint16
}

// ctx flags.
const (
	cReplace      uint16 = 1 << iota // replace the value whole
	cSchema                          // inside a schema position (not a data keyword)
	cSecret                          // inside a schema, under a property a key rule selects
	cParams                          // the value of a member named params
	cTools                           // the value of a member named tools
	cTool                            // an element of a tools array
	cResponses                       // params.inputResponses
	cResponse                        // an entry of inputResponses
	cContent                         // an elicitation answer's content
	cLegacy                          // a client response to a server elicitation/create
	cLegacyResult                    // its result
	cSchemaKeep   = cSchema | cSecret
)

// walker rewrites one JSON value, copying what it does not replace.
type walker struct {
	r       *rules
	dec     jsontext.Decoder
	frames  wire.Decoder // for prepare, sharing method names
	rd      bytes.Reader
	src     []byte
	out     []byte
	last    int // src is copied to out up to here
	changed bool
	// legacy marks the messages (index in a batch, 0 for a single
	// message) that answer a server elicitation/create.
	legacy []bool
	batch  bool
	// byPath is set for a message with duplicate member names, which the
	// path trie cannot describe (ojg keeps the last duplicate): each value
	// is then matched against the expressions by its path (in stack), and
	// a filter matches whatever it could.
	byPath bool
	stack  jp.Expr
}

// json redacts one JSON value. ok is false when src is not exactly one
// JSON value. With path rules, passes repeat until nothing changes, since
// a filter may select differently once a value is redacted.
func (r *rules) json(src []byte, dir capture.Dir) (out []byte, changed, ok bool) {
	passes := 1
	if len(r.paths) > 0 {
		passes = maxPasses
	}
	out = src
	for range passes {
		res, c, err := r.walk.run(out, dir)
		if err != nil {
			return src, false, changed
		}
		if !c {
			break
		}
		out, changed = res, true
	}
	return out, changed, true
}

// run walks src once.
func (w *walker) run(src []byte, dir capture.Dir) ([]byte, bool, error) {
	w.src, w.out, w.last, w.changed = src, nil, 0, false
	w.prepare(src, dir)
	root := ctx{}
	w.byPath, w.stack = false, w.stack[:0]
	if len(w.r.paths) > 0 {
		if jsontext.Value(src).IsValid() {
			root.node = w.r.locate(src)
		} else {
			w.byPath = true
		}
	}
	w.rd.Reset(src)
	w.dec.Reset(&w.rd, jsontext.AllowDuplicateNames(true))
	if err := w.value(root, true); err != nil {
		return nil, false, err
	}
	if _, err := w.dec.ReadToken(); err != io.EOF {
		return nil, false, errNotJSON
	}
	if !w.changed {
		return src, false, nil
	}
	return append(w.out, src[w.last:]...), true, nil
}

// prepare finds, for answer redaction, the server elicitation/create
// requests (remembering their ids) and the client responses to them.
func (w *walker) prepare(src []byte, dir capture.Dir) {
	w.legacy, w.batch = w.legacy[:0], false
	if !w.r.answers {
		return
	}
	f := w.frames.Decode(src)
	msgs := []wire.Frame{f}
	if f.Kind == wire.KindBatch {
		msgs, w.batch = f.Batch, true
	}
	for i := range msgs {
		m := &msgs[i]
		w.legacy = append(w.legacy, false)
		switch {
		case dir == capture.S2C && m.Kind == wire.KindRequest && m.Method == mcp.MethodElicit:
			if w.r.elicits == nil || len(w.r.elicits) > 1<<14 {
				w.r.elicits = make(map[string]struct{})
			}
			w.r.elicits[m.ID.Raw()] = struct{}{}
		case dir == capture.C2S && m.Kind == wire.KindResponse:
			_, asked := w.r.elicits[m.ID.Raw()]
			w.legacy[i] = asked || mcp.ElicitAction(m.Result) != ""
		}
	}
}

// value walks the next value; top is set for the message itself.
func (w *walker) value(c ctx, top bool) error {
	if c.flags&cReplace != 0 || c.node != nil && c.node.hit || w.byPath && w.pathHit() {
		return w.replace()
	}
	kind := w.dec.PeekKind()
	if c.flags&cContent != 0 && kind != '{' {
		return w.replace()
	}
	switch kind {
	case '{':
		return w.object(c, top)
	case '[':
		return w.array(c, top)
	case '"':
		raw, err := w.dec.ReadValue()
		if err != nil {
			return err
		}
		if w.r.values != nil && c.flags&cSchema == 0 {
			w.scrubString(raw)
		}
		return nil
	case 0:
		_, err := w.dec.ReadToken()
		return errOr(err)
	}
	_, err := w.dec.ReadValue()
	return err
}

func errOr(err error) error {
	if err == nil || err == io.EOF {
		return errNotJSON
	}
	return err
}

// object walks an object's members.
func (w *walker) object(c ctx, top bool) error {
	if _, err := w.dec.ReadToken(); err != nil {
		return err
	}
	if top && !w.batch && len(w.legacy) > 0 && w.legacy[0] {
		c.flags |= cLegacy
	}
	for {
		switch w.dec.PeekKind() {
		case '}':
			_, err := w.dec.ReadToken()
			return err
		case 0:
			_, err := w.dec.ReadToken()
			return errOr(err)
		}
		raw, err := w.dec.ReadValue()
		if err != nil {
			return err
		}
		name, _ := jsonraw.Unquote(nil, raw) // the decoder read it, so well-formed
		if w.byPath {
			w.stack = append(w.stack, jp.Child(name))
		}
		if err := w.value(w.member(c, name), false); err != nil {
			return err
		}
		if w.byPath {
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

// array walks an array's elements. A top-level array is a batch of
// messages.
func (w *walker) array(c ctx, top bool) error {
	if _, err := w.dec.ReadToken(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		switch w.dec.PeekKind() {
		case ']':
			_, err := w.dec.ReadToken()
			return err
		case 0:
			_, err := w.dec.ReadToken()
			return errOr(err)
		}
		ch := ctx{flags: c.flags & cSchemaKeep}
		if c.node != nil {
			ch.node = c.node.elems[i]
		}
		if c.flags&cTools != 0 && c.flags&cSchema == 0 {
			ch.flags |= cTool
		}
		if top && w.batch && i < len(w.legacy) && w.legacy[i] {
			ch.flags |= cLegacy
		}
		if w.byPath {
			w.stack = append(w.stack, jp.Nth(i))
		}
		if err := w.value(ch, false); err != nil {
			return err
		}
		if w.byPath {
			w.stack = w.stack[:len(w.stack)-1]
		}
	}
}

// pathHit reports whether a path rule selects the value at w.stack.
func (w *walker) pathHit() bool {
	for _, x := range w.r.paths {
		if jp.PathMatch(x, w.stack) {
			return true
		}
	}
	return false
}

// member returns the context of the value of member name in an object
// whose context is c.
func (w *walker) member(c ctx, name []byte) ctx {
	var ch ctx
	if c.node != nil {
		ch.node = c.node.names[string(name)]
	}
	switch {
	case c.flags&cContent != 0:
		ch.flags = cReplace
		return ch
	case c.flags&cSchema != 0:
		if isDataKeyword(name) {
			if c.flags&cSecret != 0 {
				ch.flags = cReplace
			}
			return ch
		}
		ch.flags = c.flags & cSchemaKeep
		if w.r.isKey(name) {
			ch.flags |= cSecret
		}
		return ch
	case w.r.isKey(name):
		ch.flags = cReplace
		return ch
	}
	switch string(name) {
	case "requestedSchema":
		if c.flags&cParams != 0 {
			ch.flags |= cSchema
		}
	case "inputSchema", "outputSchema":
		if c.flags&cTool != 0 {
			ch.flags |= cSchema
		}
	case "params":
		ch.flags |= cParams
	case "tools":
		ch.flags |= cTools
	}
	if w.r.answers {
		ch.flags |= answerFlags(c.flags, name)
	}
	return ch
}

// answerFlags returns the answer-redaction flags of member name of an
// object whose flags are parent.
func answerFlags(parent uint16, name []byte) uint16 {
	switch {
	case parent&cParams != 0 && string(name) == "inputResponses":
		return cResponses
	case parent&cResponses != 0:
		return cResponse
	case parent&cResponse != 0 && string(name) == "content":
		return cContent
	case parent&cLegacy != 0 && string(name) == "result":
		return cLegacyResult
	case parent&cLegacyResult != 0 && string(name) == "content":
		return cContent
	}
	return 0
}

// isDataKeyword reports whether a schema member holds data, not structure.
func isDataKeyword(name []byte) bool {
	switch string(name) {
	case "default", "const", "examples", "enum":
		return true
	}
	return false
}

// replace replaces the next value with the placeholder.
func (w *walker) replace() error {
	raw, err := w.dec.ReadValue()
	if err != nil {
		return err
	}
	if string(raw) == quotedPlaceholder {
		return nil
	}
	end := int(w.dec.InputOffset())
	w.emit(end-len(raw), end, []byte(quotedPlaceholder))
	return nil
}

// scrubString applies the value rules to the string raw just read.
func (w *walker) scrubString(raw jsontext.Value) {
	text, _ := jsonraw.Unquote(nil, raw)
	s, changed := w.r.valueString(string(text))
	if !changed {
		return
	}
	q, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		return
	}
	end := int(w.dec.InputOffset())
	w.emit(end-len(raw), end, q)
}

// emit replaces src[start:end] with repl.
func (w *walker) emit(start, end int, repl []byte) {
	if w.out == nil {
		w.out = make([]byte, 0, len(w.src)+len(repl))
	}
	w.out = append(append(w.out, w.src[w.last:start]...), repl...)
	w.last = end
	w.changed = true
}
