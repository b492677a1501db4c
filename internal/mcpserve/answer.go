package mcpserve

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptrail/mcptrail/internal/termtext"
)

// stringCaps are the lengths, in bytes, a string of an answer is cut to,
// tried in turn until the answer fits its budget.
var stringCaps = [...]int{512, 128, 32}

// list is the paginated part of an answer: its items, from the cursor on,
// as many as fit.
type list struct {
	// name is the structured content's member that holds the items.
	name string
	// n is the number of items; item and line give item i as a JSON
	// value and as one line of text, strings cut to limit bytes.
	n    int
	item func(i, limit int) ([]byte, error)
	line func(i, limit int) string
}

// page is what an answer is built from: a head object and its text,
// strings cut to limit bytes, and the list (nil: none) from start on.
type page struct {
	head  func(limit int) ([]byte, error)
	text  func(limit int) string
	list  *list
	start int
	// caps are the string lengths to try, longest first; nil means
	// stringCaps.
	caps []int
}

// reserve is room kept for the members page adds after the head and the
// items (total, returned, next_cursor, omitted) and their line of text.
const reserve = 320

// answer builds the tool result of p within budget bytes of structured
// content and text together: long strings are cut (cut, with their size),
// and the items that do not fit are left for the next page, which
// next_cursor names.
func answer(p *page, budget int) (*mcp.CallToolResult, error) {
	caps := p.caps
	if caps == nil {
		caps = stringCaps[:]
	}
	for k, limit := range caps {
		last := k == len(caps)-1
		head, err := p.head(limit)
		if err != nil {
			return nil, err
		}
		text := p.text(limit)
		if len(head)+len(text)+reserve > budget && !last {
			continue
		}
		if p.list == nil || p.start >= p.list.n {
			return finish(head, text, p, nil, nil, 0)
		}
		used := len(head) + len(text) + reserve
		var items [][]byte
		var lines []string
		for i := p.start; i < p.list.n; i++ {
			it, err := p.list.item(i, limit)
			if err != nil {
				return nil, err
			}
			ln := p.list.line(i, limit)
			if used+len(it)+len(ln)+2 > budget {
				break
			}
			used += len(it) + len(ln) + 2
			items, lines = append(items, it), append(lines, ln)
		}
		if len(items) == 0 && !last {
			continue
		}
		tooBig := 0
		if len(items) == 0 {
			// Not even one item fits, its strings cut short: say so and
			// step over it, so that the next page goes on.
			it, _ := p.list.item(p.start, limit)
			tooBig = len(it)
			items = [][]byte{[]byte(`{"omitted_bytes":` + strconv.Itoa(tooBig) + `}`)}
			lines = []string{fmt.Sprintf("(item %d is %d bytes, more than the answer budget)", p.start, tooBig)}
		}
		return finish(head, text, p, items, lines, tooBig)
	}
	panic("unreachable: the last cap always returns")
}

// finish assembles the structured content (head's members, then the
// list's) and the text of an answer.
func finish(head []byte, text string, p *page, items [][]byte, lines []string, tooBig int) (*mcp.CallToolResult, error) {
	var b bytes.Buffer
	b.Write(bytes.TrimSuffix(bytes.TrimSpace(head), []byte("}")))
	sep := func() {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
	}
	var tb strings.Builder
	tb.WriteString(text)
	if l := p.list; l != nil {
		sep()
		fmt.Fprintf(&b, "%q:[", l.name)
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(it)
		}
		b.WriteByte(']')
		next := p.start + len(items)
		fmt.Fprintf(&b, `,"total":%d,"returned":%d`, l.n, len(items))
		for _, ln := range lines {
			tb.WriteString(ln)
			tb.WriteByte('\n')
		}
		var omitted []string
		if p.start > 0 {
			omitted = append(omitted, fmt.Sprintf("%d %s before the cursor", min(p.start, l.n), l.name))
		}
		if tooBig > 0 {
			omitted = append(omitted, fmt.Sprintf("item %d whole (%d bytes)", p.start, tooBig))
		}
		if next < l.n {
			fmt.Fprintf(&b, `,"next_cursor":"%d"`, next)
			omitted = append(omitted, fmt.Sprintf("%d more %s: call again with cursor %q", l.n-next, l.name, strconv.Itoa(next)))
		}
		if len(omitted) > 0 {
			note := "left out: " + strings.Join(omitted, "; ")
			fmt.Fprintf(&b, `,"omitted":%s`, strconv.Quote(note))
			tb.WriteString(note + "\n")
		}
		if l.n == 0 {
			tb.WriteString("(none)\n")
		}
	}
	b.WriteByte('}')
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: tb.String()}},
		StructuredContent: stdjson.RawMessage(b.Bytes()),
	}, nil
}

// cursor reads a cursor argument: "" is the start, else the offset a
// previous answer's next_cursor gave, at most n.
func cursor(s string, n int) (int, error) {
	if s == "" {
		return 0, nil
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i > n {
		return 0, fmt.Errorf("invalid cursor %q: pass back a next_cursor of an earlier answer (0 to %d)", cut(s, 32), n)
	}
	return i, nil
}

// marshal encodes v as a JSON object or value with its strings cut to
// limit bytes (clip).
func marshal(v any, limit int) ([]byte, error) {
	b, err := json.Marshal(v, jsontext.AllowInvalidUTF8(true), json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encoding an answer: %w", err)
	}
	return clip(b, limit)
}

// clip rewrites the JSON value b with every string (member names too)
// longer than limit bytes cut (cut), and invalid UTF-8 replaced, so that
// no answer carries a member of unbounded size or bytes a client's
// decoder refuses.
func clip(b []byte, limit int) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out, jsontext.AllowDuplicateNames(true), jsontext.EscapeForHTML(false))
	for {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("encoding an answer: %w", err)
		}
		if tok.Kind() == '"' {
			tok = jsontext.String(cut(tok.String(), limit))
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil, fmt.Errorf("encoding an answer: %w", err)
		}
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// cut returns s, valid UTF-8, and when its JSON encoding is longer than
// limit bytes its first characters that encode in limit bytes, followed
// by the size of the whole string: a string of control characters, each
// six bytes escaped, is cut as short on the wire as any other.
func cut(s string, limit int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	size := 0
	for i, r := range s {
		size += jsonSize(r)
		if size > limit {
			return s[:i] + fmt.Sprintf("…[cut: %d bytes in all]", len(s))
		}
	}
	return s
}

// jsonSize is the length of r inside a JSON string.
func jsonSize(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\t' || r == '\r' || r == '\b' || r == '\f':
		return 2
	case r < 0x20:
		return 6
	}
	return utf8.RuneLen(r)
}

// show is s escaped for one line of text (termtext.Escape) and cut to
// limit bytes of that.
func show(s string, limit int) string { return cut(termtext.Escape(s), limit) }

// toolError is the result of a call that failed: its message, escaped
// and bounded, with isError set so the agent can correct itself.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: show(err.Error(), 1024)}}}
}

// plural is n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
