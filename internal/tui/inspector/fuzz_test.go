package inspector

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// FuzzParse holds the body parser to jsontext: it never panics; what it
// accepts, written back from its nodes, is the same JSON value; every
// layout of it has one line per shown node and bracket, a jq path per
// line, and draws safely.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `0`, `"x"`, `{"a":[1,{"b":null}],"c":"x\u001by"}`, `{"a":1,"a":2}`,
		`[1,]`, `{"a b":{"\u202e":[true,false]}}`, "\"\xff\"", `{"a":`, `[[[[]]]]`, `1 2`} {
		f.Add([]byte(s))
	}
	// Every frame of the transcripts.
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(tuitest.Transcript("x")), "*.transcript.jsonl"))
	for _, p := range paths {
		for _, st := range tuitest.ReadTranscript(f, p) {
			f.Add(st.Raw)
		}
	}
	m := Model{th: ui.NewTheme(true), w: 30, h: 10}
	f.Fuzz(func(t *testing.T, in []byte) {
		tr, err := parseJSON(string(in))
		if err != nil {
			return
		}
		checkRoundTrip(t, in, tr)
		for _, l := range []*layout{newLayout(tr, nil), newLayout(tr, nil).foldedAll()} {
			checkLayout(t, l)
			for k := range l.lines {
				checkSafe(t, m.jsonRow(l, k, k == 0), m.w)
				_ = tr.path(l.nodeAt(k))
			}
		}
	})
}

// checkRoundTrip writes tr back as JSON and compares it with in, both
// canonicalized (when in canonicalizes: no invalid UTF-8 or duplicates).
func checkRoundTrip(t *testing.T, in []byte, tr *tree) {
	t.Helper()
	want := jsontext.Value(bytes.Clone(in))
	if want.Canonicalize() != nil {
		return
	}
	got := jsontext.Value(serialize(t, tr))
	if err := got.Canonicalize(); err != nil {
		t.Fatalf("the tree of %q writes back as invalid JSON %q: %v", in, serialize(t, tr), err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the tree of %q writes back as %q", in, got)
	}
}

// serialize writes a tree back as compact JSON.
func serialize(t *testing.T, tr *tree) []byte {
	var b []byte
	var open []int32
	for i := int32(0); i < int32(len(tr.nodes)); i++ {
		for len(open) > 0 && tr.nodes[open[len(open)-1]].end <= i {
			b = append(b, closer(tr.nodes[open[len(open)-1]].kind))
			open = open[:len(open)-1]
		}
		n := &tr.nodes[i]
		if n.parent >= 0 && n.index > 0 {
			b = append(b, ',')
		}
		if n.named {
			b, _ = jsontext.AppendQuote(b, n.key)
			b = append(b, ':')
		}
		switch {
		case n.container():
			b = append(b, n.kind)
			open = append(open, i)
		case n.kind == kindString:
			b, _ = jsontext.AppendQuote(b, n.text)
		default:
			b = append(b, n.text...)
		}
	}
	for k := len(open) - 1; k >= 0; k-- {
		b = append(b, closer(tr.nodes[open[k]].kind))
	}
	return b
}

// checkLayout checks the line model: each visible node once, a closing
// line for each unfolded non-empty container, lineOf consistent.
func checkLayout(t *testing.T, l *layout) {
	t.Helper()
	opens, closes := 0, 0
	for k, ln := range l.lines {
		if ln.close {
			closes++
			continue
		}
		opens++
		if int(l.lineOf[ln.node]) != k {
			t.Fatalf("lineOf[%d] = %d, want %d", ln.node, l.lineOf[ln.node], k)
		}
	}
	want := 0
	for i := range l.t.nodes {
		if l.lineOf[i] >= 0 && l.foldable(int32(i)) && !l.folded[i] {
			want++
		}
	}
	if closes != want {
		t.Fatalf("%d closing lines, want %d", closes, want)
	}
}

// sgr matches the only escape sequences a View may hold: SGR styling.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkSafe fails unless s is safe terminal output: no control byte but
// \n, no escape but SGR, no C1 or bidi runes, and lines of at most w cells.
// (Invalid UTF-8 inside a JSON string never reaches a body: the capture
// keeps such a frame as bytes, shown escaped; jsontext reads it as U+FFFD.)
func checkSafe(t testing.TB, s string, w int) {
	t.Helper()
	rest := sgr.ReplaceAllString(s, "")
	for _, r := range rest {
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			t.Fatalf("control %U in %q", r, s)
		case r == 0x61c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			t.Fatalf("bidi control %U in %q", r, s)
		}
	}
	for _, ln := range bytes.Split([]byte(s), []byte("\n")) {
		if got := ui.Width(string(ln)); got > w {
			t.Fatalf("line %q is %d cells wide, more than %d", ln, got, w)
		}
	}
}
