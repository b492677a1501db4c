package stream

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/filter"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
)

// TestFilterGrammar checks the filter bar's syntax help: the empty bar
// shows the placeholder, ? on it lists every key of filter.Spec in place
// of the rows, ? again (or any key) closes it, and ? after text is typed.
func TestFilterGrammar(t *testing.T) {
	t.Parallel()
	m := forty(t).SetSize(120, 24)
	press := func(m Model, keys ...string) Model {
		for _, k := range keys {
			m, _ = m.Update(tuitest.Press(k))
		}
		return m
	}
	view := func(m Model) string { return ansi.Strip(m.View()) }
	if v := view(press(m, "/")); !strings.Contains(v, placeholder) {
		t.Errorf("empty bar shows no placeholder:\n%s", v)
	}
	g := press(m, "/", "?")
	v := view(g)
	for _, k := range filter.Spec() {
		if !strings.Contains(v, "\n "+k.Name+":") {
			t.Errorf("grammar lacks key %s:\n%s", k.Name, v)
		}
	}
	if strings.Contains(v, "tool_") {
		t.Errorf("grammar shows the rows too:\n%s", v)
	}
	if v := view(press(g, "?")); strings.Contains(v, "\n status:") || !strings.Contains(v, "tool_") {
		t.Errorf("? again leaves the grammar up:\n%s", v)
	}
	if s := press(g, "t"); s.grammar || s.bar != "t" {
		t.Errorf("t over the grammar: grammar %v, bar %q; want closed, \"t\"", s.grammar, s.bar)
	}
	if s := press(m, "/", "x", "?"); s.grammar || s.bar != "x?" {
		t.Errorf("? after text: grammar %v, bar %q; want typed", s.grammar, s.bar)
	}
}
