package inspector

import (
	"strings"
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// hostileSteps is a call whose request and response are full of what must
// never reach a terminal raw: escapes written as \u001b (ESC once decoded),
// OSC sequences, raw bidi overrides and C1 controls, NUL, a 1 MB
// single-line string and a 1 MB member name.
func hostileSteps() []tuitest.Step {
	mb := strings.Repeat(`\u001b[2J\u001b]0;x\u0007`, 1<<20/24)
	req := `{"jsonrpc":"2.0","id":"\u001b[31mid","method":"tools/call","params":{"name":"evil\u001b[2J\u202e` +
		"\u202e\u0085\u009b" + `tool\u0000","arguments":{"\u001b]0;pwn\u0007":"\u0000NUL","` + mb + `":1,"items":["\u001b[H",` +
		`"` + strings.Repeat("\u202e", 1000) + `"]}}}`
	resp := `{"jsonrpc":"2.0","id":"\u001b[31mid","result":{"content":[{"type":"text","text":"` + mb + `"}],` +
		`"isError":false,"\u001b[2J":null}}`
	return []tuitest.Step{{Dir: "c2s", Raw: []byte(req)}, {Dir: "s2c", Raw: []byte(resp)}}
}

func TestHostileContent(t *testing.T) {
	t.Parallel()
	d := tuitest.Data(t, tuitest.Capture(t, "hostile", hostileSteps(), true))
	keys := [][]string{nil, {"j", "j", "j", "j", "j"}, {"G"}, {"j", "j", "j", "j", "j", "j", "j", "j"}, {"z"},
		{"/", "\u202e", "enter"}, {"/", "2", "j", "enter", "n"}, {"tab"}, {"tab", "G"}, {"tab", "z"}}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 10}, {1, 1}} {
		base := open(t, d, 0, size[0], size[1]) // a Model is a value: each run starts from it
		for _, k := range keys {
			m, _ := tuitest.Send(base, k...)
			checkSize(t, m.View(), size[0], size[1])
		}
	}
	// The decoded ESC shows escaped; the 1 MB line is cut to the width.
	m, _ := tuitest.Send(open(t, d, 0, 80, 24), "tab")
	view := m.View()
	if !strings.Contains(view, `\x1b[2J\x1b]0;x\x07`) {
		t.Errorf("the escaped text is not shown:\n%s", view)
	}
	// A frame that is not JSON, shown as text lines.
	l := newLayout(textTree("a\x1b[2J\x00\u202e\x9b\nb\x1b]0;x\a", "not JSON"), nil)
	for k := range l.lines {
		checkSafe(t, m.jsonRow(l, k, k == 1), m.w)
	}
	if _, cmd := tuitest.Send(m, "y"); len(msgs(cmd)) != 1 {
		t.Errorf("y on a 1 MB body sent %d messages, want the status alone", len(msgs(cmd)))
	}
}

// TestHostilePath checks a jq path quotes names that are not identifiers,
// so a copied or shown path holds JSON escapes, never raw controls.
func TestHostilePath(t *testing.T) {
	t.Parallel()
	tr := mustParse(t, `{"\u001b]0;x\u0007":{"\u0000":[1]}}`)
	if got, want := tr.path(3), `.["\u001b]0;x\u0007"].["\u0000"][0]`; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
	if s := ui.Cell(tr.path(3), 80); strings.ContainsAny(s, "\x00\x1b\x07") {
		t.Errorf("path shows raw controls: %q", s)
	}
}
