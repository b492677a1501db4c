package inspector

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plain renders every line of l as text (no styles), the way a test reads
// a body: indent, name, value, comma.
func plain(l *layout) []string {
	var out []string
	for _, ln := range l.lines {
		n := &l.t.nodes[ln.node]
		s := strings.Repeat("  ", int(n.depth))
		switch {
		case n.kind == kindText:
			s += n.text
		case ln.close:
			s += string(closer(n.kind)) + comma(n)
		default:
			if n.named {
				s += `"` + n.key + `": `
			}
			switch {
			case n.container() && n.count == 0:
				s += string(n.kind) + string(closer(n.kind)) + comma(n)
			case n.container() && l.folded[ln.node]:
				s += string(n.kind) + "…" + string(closer(n.kind)) + " " + members(n) + comma(n)
			case n.container():
				s += string(n.kind)
			case n.kind == kindString:
				s += `"` + n.text + `"` + comma(n)
			default:
				s += n.text + comma(n)
			}
		}
		out = append(out, s)
	}
	return out
}

func mustParse(t *testing.T, s string) *tree {
	t.Helper()
	tr, err := parseJSON(s)
	if err != nil {
		t.Fatalf("parseJSON(%q): %v", s, err)
	}
	return tr
}

func TestParseLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"scalar", `42`, []string{"42"}},
		{"empty containers", `{"a":{},"b":[]}`, []string{"{", `  "a": {},`, `  "b": []`, "}"}},
		{"nested", `{"a":[1,{"b":null}],"c":"x\u001by"}`, []string{
			"{", `  "a": [`, "    1,", "    {", `      "b": null`, "    }", "  ],", "  \"c\": \"x\x1by\"", "}"}},
		{"duplicate names kept", `{"a":1,"a":2}`, []string{"{", `  "a": 1,`, `  "a": 2`, "}"}},
		{"escaped name", `{"a\"b":true}`, []string{"{", `  "a"b": true`, "}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plain(newLayout(mustParse(t, tt.in), nil))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{``, `{`, `{"a":}`, `[1,]`, `1 2`, `{"a":1}}`, `nul`, strings.Repeat("[", 20000) + strings.Repeat("]", 20000)} {
		if _, err := parseJSON(in); err == nil {
			t.Errorf("parseJSON(%.20q) accepted it", in)
		}
	}
}

func TestFolds(t *testing.T) {
	t.Parallel()
	tr := mustParse(t, `{"a":{"b":[1,2,3]},"c":[{"d":1}],"e":5}`)
	l := newLayout(tr, nil)
	if got, want := len(l.lines), 15; got != want {
		t.Fatalf("unfolded: %d lines, want %d", got, want)
	}
	all := l.foldedAll()
	want := []string{"{", `  "a": {…} 1 key,`, `  "c": […] 1 item,`, `  "e": 5`, "}"}
	if diff := cmp.Diff(want, plain(all)); diff != "" {
		t.Errorf("fold all (-want +got):\n%s", diff)
	}
	// Toggling "a" (node 1) unfolds it alone; its array stays folded.
	one := all.toggled(1)
	want = []string{"{", `  "a": {`, `    "b": […] 3 items`, "  },", `  "c": […] 1 item,`, `  "e": 5`, "}"}
	if diff := cmp.Diff(want, plain(one)); diff != "" {
		t.Errorf("toggle a (-want +got):\n%s", diff)
	}
	// Revealing the 2 inside b unfolds b; the older layouts are unchanged.
	rev := one.revealed(4)
	if got := plain(rev)[4]; got != "      2," {
		t.Errorf("revealed line 4 = %q, want the 2", got)
	}
	if len(all.lines) != 5 || len(one.lines) != 7 {
		t.Errorf("a fold change modified an older layout: %d, %d lines", len(all.lines), len(one.lines))
	}
	if got := rev.unfoldedAll(); len(got.lines) != 15 {
		t.Errorf("unfold all: %d lines, want 15", len(got.lines))
	}
	if l.toggled(5) != l { // a scalar does not fold
		t.Error("toggling a scalar made a new layout")
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	tr := mustParse(t, `{"params":{"arguments":{"items":[0,1,2,{"name":"x"}],"a b":1,"":2,"_x9":3,"9x":4,"é":5}}}`)
	l := newLayout(tr, nil)
	tests := []struct {
		line int
		want string
	}{
		{0, "."},
		{1, ".params"},
		{2, ".params.arguments"},
		{3, ".params.arguments.items"},
		{7, ".params.arguments.items[3]"},
		{8, ".params.arguments.items[3].name"},
		{9, ".params.arguments.items[3]"}, // its closing brace
		{11, `.params.arguments.["a b"]`},
		{12, `.params.arguments.[""]`},
		{13, ".params.arguments._x9"},
		{14, `.params.arguments.["9x"]`},
		{15, `.params.arguments.["é"]`},
		{18, "."},
	}
	for _, tt := range tests {
		if got := tr.path(l.nodeAt(tt.line)); got != tt.want {
			t.Errorf("path of line %d (%q) = %q, want %q", tt.line, plain(l)[tt.line], got, tt.want)
		}
	}
}

func TestTextTree(t *testing.T) {
	t.Parallel()
	tr := textTree("a\nb\x1b[2J", "not JSON")
	l := newLayout(tr, nil)
	if diff := cmp.Diff([]string{"a", "b\x1b[2J"}, plain(l)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := tr.path(0); got != "." {
		t.Errorf("path of a text line = %q", got)
	}
}
