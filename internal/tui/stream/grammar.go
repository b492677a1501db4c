package stream

import (
	"strings"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// placeholder is the empty filter bar's text: the syntax at a glance.
const placeholder = "tool:NAME status:error slow:>1s text…  ? grammar"

// grammar is the filter language as the stream shows it on `?` in an
// empty filter bar: one line per key of filter.Spec (the source
// docs/filter.md's table is generated from), then the rules that join
// terms. A term and its meaning are two cells.
func grammar() [][2]string {
	out := [][2]string{{"TERM", "MATCHES"}}
	for _, k := range filter.Spec() {
		out = append(out, [2]string{k.Name + ":" + valueOf(k), strings.ReplaceAll(k.Doc, "`", "")})
	}
	return append(out,
		[2]string{"text", "the method, target or error message contains it (any case)"},
		[2]string{"!term", "negates a term (!status:ok)"},
		[2]string{`"a b"`, "quotes a value or text with spaces or colons"},
		[2]string{"a b", "every term must match"})
}

// valueOf names the value k takes: its enum values, or a placeholder.
func valueOf(k filter.Key) string {
	switch k.Kind {
	case filter.KindEnum:
		return strings.Join(k.Values, "|")
	case filter.KindDuration:
		return ">DUR"
	case filter.KindID:
		return "ID"
	}
	return "PATTERN"
}

// grammarLines draws the grammar in n lines of width w.
func (m Model) grammarLines(n int) []string {
	g := grammar()
	termW := 0
	for _, l := range g {
		termW = max(termW, ui.Width(l[0]))
	}
	termW = min(termW, max(m.w/2, 1))
	out := make([]string, 0, n)
	for i, l := range g {
		if len(out) == n {
			break
		}
		term := ui.Pad(ui.Cell(l[0], termW), termW)
		doc := ui.Cell(l[1], max(m.w-termW-3, 0))
		if i == 0 {
			out = append(out, " "+m.th.Header.Render(term)+"  "+m.th.Header.Render(doc))
			continue
		}
		out = append(out, " "+m.th.Key.Render(term)+"  "+m.th.Dim.Render(doc))
	}
	return out
}
