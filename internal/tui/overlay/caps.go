package overlay

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Capabilities shows what the peers declared and the session's protocol.
const Capabilities Kind = "capabilities"

func newCaps(th *ui.Theme, d ui.Data, opts *Options) Overlay {
	return newList(th, Capabilities, d, opts, capRows(nil))
}

// capRows are the capabilities overlay's lines.
type capRows []capLine

func (capRows) set(_ *frame, d ui.Data) capRows { return capLines(d.Snap) }

func (c capRows) count(*frame) int { return len(c) }

func (capRows) title(f *frame) string { return f.th.Title.Render("Capabilities") }

func (capRows) empty() string { return "" }

// capLine is one line of the capabilities overlay: a key at a depth and
// its value (raw text, escaped when drawn); a section title when title.
type capLine struct {
	depth int
	key   string
	val   string
	title bool
}

// Bounds of a capabilities tree: a peer may send anything.
const (
	maxCapLines = 400
	maxCapDepth = 8
	maxCapValue = 200 // bytes of a scalar or compacted array kept
)

// capLines lays out the session's peers and protocol.
func capLines(snap *store.Snapshot) []capLine {
	s := &snap.Session
	var out []capLine
	out = peerLines(out, "Client", &s.Client)
	out = append(out, capLine{depth: 1, key: "elicitation", val: elicitText(&s.Client)})
	out = capTree(out, "capabilities", s.Client.Capabilities)
	out = peerLines(out, "Server", &s.Server)
	out = capTree(out, "capabilities", s.Server.Capabilities)
	out = append(out, capLine{title: true, key: "Session"},
		capLine{depth: 1, key: "eras", val: listText(s.Eras)},
		capLine{depth: 1, key: "protocol versions", val: listText(s.ProtocolVersions)},
		capLine{depth: 1, key: "transport", val: orNone(s.Transport)})
	if s.Target != "" {
		out = append(out, capLine{depth: 1, key: "target", val: s.Target})
	}
	if len(s.Command) > 0 {
		out = append(out, capLine{depth: 1, key: "command", val: strings.Join(s.Command, " ")})
	}
	return out
}

func peerLines(out []capLine, title string, p *store.Peer) []capLine {
	name := orNone(p.Name)
	if p.Version != "" {
		name += " " + p.Version
	}
	return append(out, capLine{title: true, key: title, val: name})
}

// elicitText is what the client declared of elicitation: "form, url",
// "form", "url" or "none".
func elicitText(p *store.Peer) string {
	var modes []string
	if p.ElicitForm {
		modes = append(modes, "form")
	}
	if p.ElicitURL {
		modes = append(modes, "url")
	}
	return listText(modes)
}

func listText(vs []string) string {
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// capTree appends raw, a capabilities object, as a tree under key: one
// line per member, objects opening a level, arrays and scalars shown
// compact. Unreadable JSON is shown as it is.
func capTree(out []capLine, key string, raw jsontext.Value) []capLine {
	if raw == nil {
		return append(out, capLine{depth: 1, key: key, val: "none"})
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	t := tree{out: out, start: len(out)}
	if err := t.value(dec, key, 1); err != nil {
		t.out = append(t.out[:t.start], capLine{depth: 1, key: key, val: cut(string(raw)) + "  (unreadable: " + err.Error() + ")"})
	}
	return t.out
}

// tree walks a JSON value into lines.
type tree struct {
	out   []capLine
	start int
}

func (t *tree) value(dec *jsontext.Decoder, key string, depth int) error {
	if dec.PeekKind() != '{' || depth > maxCapDepth {
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		t.add(capLine{depth: depth, key: key, val: cut(compact(v))})
		return nil
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if dec.PeekKind() == '}' {
		t.add(capLine{depth: depth, key: key, val: "{}"})
		_, err := dec.ReadToken()
		return err
	}
	t.add(capLine{depth: depth, key: key})
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := t.value(dec, name.String(), depth+1); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

func (t *tree) add(l capLine) {
	switch n := len(t.out) - t.start; {
	case n < maxCapLines:
		t.out = append(t.out, l)
	case n == maxCapLines:
		t.out = append(t.out, capLine{depth: l.depth, key: "…", val: "(more members not shown)"})
	}
}

func compact(v jsontext.Value) string {
	c := v.Clone()
	if err := c.Compact(); err != nil {
		return string(v)
	}
	return string(c)
}

func cut(s string) string {
	if len(s) > maxCapValue {
		return s[:maxCapValue] + "…"
	}
	return s
}

func (c capRows) cells(f *frame, i int) []cell {
	l := &c[i]
	if l.title {
		return []cell{{s: ui.Cell(l.key, 12), w: 12, st: styled(f.th.Title)}, {s: ui.Cell(l.val, f.w)}}
	}
	indent := strings.Repeat("  ", l.depth)
	k := indent + ui.Cell(l.key, max(f.w-len(indent), 0))
	if l.val == "" {
		return []cell{{s: k, st: styled(f.th.JSONKey)}}
	}
	kw := max(ui.Width(k)+1, 20)
	return []cell{{s: k, w: kw, st: styled(f.th.JSONKey)}, {s: ui.Cell(l.val, f.w)}}
}
