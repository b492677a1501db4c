package inspector

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// where is the part of a Model a key moves.
type where struct {
	Round, Pane, Cursor, Top int
	Lines                    int // visible lines of the shown body
}

func whereOf(m Model) where {
	v, _ := m.curView()
	w := where{Round: m.round, Pane: m.pane, Cursor: v.cursor, Top: v.top}
	if v.lay != nil {
		w.Lines = len(v.lay.lines)
	}
	return w
}

// The elicit-seed fixture: calls 0 and 1 are the two rounds of operation
// 0; call 1's request (seq 3) is 33 lines unfolded, its response 13;
// call 0's request is 22. The body shows 20 lines at 80x24.
func TestUpdateKeys(t *testing.T) {
	t.Parallel()
	d := fixture(t, "elicit-seed")
	tests := []struct {
		name string
		call int
		keys []string
		want where
	}{
		{"opens on the call's round", 1, nil, where{Round: 1, Lines: 33}},
		{"down", 1, []string{"down", "j"}, where{Round: 1, Cursor: 2, Lines: 33}},
		{"up stops at the top", 1, []string{"down", "up", "k", "up"}, where{Round: 1, Lines: 33}},
		{"G scrolls", 1, []string{"G"}, where{Round: 1, Cursor: 32, Top: 13, Lines: 33}},
		{"g", 1, []string{"G", "g"}, where{Round: 1, Lines: 33}},
		{"pgdown", 1, []string{"pgdown"}, where{Round: 1, Cursor: 19, Top: 0, Lines: 33}},
		{"pgdown pgup", 1, []string{"pgdown", "pgdown", "pgup"}, where{Round: 1, Cursor: 13, Top: 13, Lines: 33}},
		{"tab to the response", 1, []string{"tab"}, where{Round: 1, Pane: paneResponse, Lines: 13}},
		{"tab wraps", 1, []string{"tab", "tab"}, where{Round: 1, Lines: 33}},
		{"shift+tab", 1, []string{"shift+tab"}, where{Round: 1, Pane: paneResponse, Lines: 13}},
		{"panes keep their cursor", 1, []string{"j", "tab", "tab"}, where{Round: 1, Cursor: 1, Lines: 33}},
		{"previous round", 1, []string{"["}, where{Round: 0, Lines: 22}},
		{"no round before the first", 0, []string{"[", "["}, where{Round: 0, Lines: 22}},
		{"next round", 0, []string{"]"}, where{Round: 1, Lines: 33}},
		{"fold the root", 1, []string{"enter"}, where{Round: 1, Lines: 1}},
		{"space unfolds", 1, []string{"enter", "space"}, where{Round: 1, Lines: 33}},
		{"fold on a closing line", 1, []string{"G", "k", "enter"}, where{Round: 1, Cursor: 4, Lines: 6}},
		{"z", 1, []string{"z"}, where{Round: 1, Lines: 6}},
		{"z keeps the cursor's ancestor", 1, []string{"j", "j", "j", "j", "j", "z"}, where{Round: 1, Cursor: 4, Lines: 6}},
		{"Z", 1, []string{"z", "Z"}, where{Round: 1, Lines: 33}},
		{"a scalar does not fold", 1, []string{"j", "enter"}, where{Round: 1, Cursor: 1, Lines: 33}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := tuitest.Send(open(t, d, tt.call, 80, 24), tt.keys...)
			if diff := cmp.Diff(tt.want, whereOf(m)); diff != "" {
				t.Errorf("after %v (-want +got):\n%s", tt.keys, diff)
			}
		})
	}
}

// TestUpdatePure checks a key leaves the Model it was given unchanged.
func TestUpdatePure(t *testing.T) {
	t.Parallel()
	m := open(t, fixture(t, "elicit-seed"), 1, 80, 24)
	before := m.View()
	for _, k := range []string{"j", "enter", "z", "tab", "]", "/", "x", "enter"} {
		m.Update(tuitest.Press(k))
	}
	if got := m.View(); got != before {
		t.Errorf("Update changed the Model it was given:\n%s", got)
	}
}

// msgs runs cmd and flattens batches into the messages they produce.
func msgs(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, msgs(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func TestUpdateNavigationMessages(t *testing.T) {
	t.Parallel()
	seed, legacy := fixture(t, "elicit-seed"), fixture(t, "legacy-2025-11-25")
	tests := []struct {
		name string
		d    ui.Data
		call int
		keys []string
		want tea.Msg
	}{
		{"esc", seed, 1, []string{"esc"}, ui.BackMsg{}},
		{"q", seed, 1, []string{"q"}, ui.BackMsg{}},
		{"r from a retry to the root", seed, 1, []string{"r"}, ui.InspectMsg{Call: 0}},
		{"r from the third operation's retry", seed, 5, []string{"r"}, ui.InspectMsg{Call: 4}},
		{"r from the root's second round", seed, 0, []string{"]", "r"}, ui.InspectMsg{Call: 0}},
		{"r from a nested request to its call", legacy, 3, []string{"r"}, ui.InspectMsg{Call: 1}},
		{"o opens the first nested request", legacy, 1, []string{"tab", "tab", "o"}, ui.InspectMsg{Call: 2}},
		{"enter opens the second", legacy, 1, []string{"tab", "tab", "j", "enter"}, ui.InspectMsg{Call: 3}},
		{"r on a root call says so", legacy, 1, []string{"r"},
			ui.StatusMsg{Text: "this call is a root call: no operation or interrupted call to jump to"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cmd := tuitest.Send(open(t, tt.d, tt.call, 80, 24), tt.keys...)
			if diff := cmp.Diff([]tea.Msg{tt.want}, msgs(cmd)); diff != "" {
				t.Errorf("after %v (-want +got):\n%s", tt.keys, diff)
			}
		})
	}
}

func TestNestedPaneOnlyWhenNested(t *testing.T) {
	t.Parallel()
	legacy := fixture(t, "legacy-2025-11-25")
	m, _ := tuitest.Send(open(t, legacy, 1, 80, 24), "tab", "tab")
	if m.pane != paneNested {
		t.Fatalf("pane %d after two tabs on a call with nested requests, want the nested list", m.pane)
	}
	if got := whereOf(m); got.Cursor != 0 || len(m.nestedCalls()) != 2 {
		t.Errorf("nested list: cursor %d, %d calls; want 0, 2", got.Cursor, len(m.nestedCalls()))
	}
	m, _ = tuitest.Send(open(t, legacy, 2, 80, 24), "tab", "tab")
	if m.pane != paneRequest {
		t.Errorf("pane %d after two tabs on a call without nested requests, want the request", m.pane)
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	m := open(t, fixture(t, "elicit-seed"), 1, 80, 24)
	m, _ = tuitest.Send(m, "z", "/")
	if !m.Capturing() {
		t.Fatal("Capturing false while typing a search")
	}
	m, _ = tuitest.Send(m, "C", "A", "N", "A", "R", "Y", "x", "backspace")
	if m.search.input != "CANARY" {
		t.Fatalf("input %q, want CANARY", m.search.input)
	}
	m, cmd := tuitest.Send(m, "enter")
	if m.Capturing() || cmd != nil {
		t.Fatalf("after enter: Capturing %v, cmd %v", m.Capturing(), cmd)
	}
	// "canary" is in the username and the email, both folded away by z.
	v, _ := m.curView()
	want := []string{".params.inputResponses.profile.content.username", ".params.inputResponses.profile.content.email"}
	var got []string
	for range 3 {
		v, _ = m.curView()
		got = append(got, v.lay.t.path(v.lay.nodeAt(v.cursor)))
		m, _ = tuitest.Send(m, "n")
	}
	if diff := cmp.Diff(append(want, want[0]), got); diff != "" {
		t.Errorf("n visits (-want +got):\n%s", diff)
	}
	m, _ = tuitest.Send(m, "N")
	v, _ = m.curView()
	if p := v.lay.t.path(v.lay.nodeAt(v.cursor)); p != want[0] {
		t.Errorf("N went to %s, want %s", p, want[0])
	}
	if footer := m.footer(); !strings.Contains(footer, "1/2") {
		t.Errorf("footer %q does not say 1/2", footer)
	}
	m, _ = tuitest.Send(m, "/", "esc")
	if m.Capturing() || len(m.search.matches) != 2 {
		t.Errorf("esc in the input: Capturing %v, %d matches (want the old search kept)", m.Capturing(), len(m.search.matches))
	}
}

func TestSearchNoMatch(t *testing.T) {
	t.Parallel()
	m := open(t, fixture(t, "elicit-seed"), 1, 80, 24)
	m, _ = tuitest.Send(m, "/", "z", "z", "z", "enter", "n")
	if len(m.search.matches) != 0 || whereOf(m).Cursor != 0 || !strings.Contains(m.footer(), "0/0") {
		t.Errorf("no match: %d matches, cursor %d, footer %q", len(m.search.matches), whereOf(m).Cursor, m.footer())
	}
}

func TestCopy(t *testing.T) {
	t.Parallel()
	m := open(t, fixture(t, "elicit-seed"), 1, 80, 24)
	_, cmd := tuitest.Send(m, "tab", "y")
	body := `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"account created"}]}}`
	want := []tea.Msg{tea.SetClipboard(body)(), ui.StatusMsg{Text: "copied the response body (112 bytes) to the clipboard " +
		"(OSC 52; if your terminal does not support it, use mcptrail export)"}}
	if diff := cmp.Diff(fmt.Sprint(want), fmt.Sprint(msgs(cmd))); diff != "" {
		t.Errorf("y (-want +got):\n%s", diff)
	}
	_, cmd = tuitest.Send(m, "j", "j", "j", "j", "j", "Y")
	want = []tea.Msg{tea.SetClipboard(".params.name")(), ui.StatusMsg{Text: "copied .params.name to the clipboard " +
		"(OSC 52; if your terminal does not support it, the path is: .params.name)"}}
	if diff := cmp.Diff(fmt.Sprint(want), fmt.Sprint(msgs(cmd))); diff != "" {
		t.Errorf("Y (-want +got):\n%s", diff)
	}
	if got := fmt.Sprintf("%T", msgs(cmd)[0]); got != fmt.Sprintf("%T", tea.SetClipboard("")()) {
		t.Errorf("Y's first message is a %s, not SetClipboard's", got)
	}
}

func TestCopyTooLarge(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 300<<10) + `"}]}}`
	steps := []tuitest.Step{
		{Dir: "c2s", Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}`)},
		{Dir: "s2c", Raw: []byte(big)},
	}
	m := open(t, tuitest.Data(t, tuitest.Capture(t, "big", steps, true)), 0, 80, 24)
	_, cmd := tuitest.Send(m, "tab", "y")
	want := []tea.Msg{ui.StatusMsg{Text: "the response body is 300.1 KB: too large for the clipboard; use mcptrail export", Err: true}}
	if diff := cmp.Diff(want, msgs(cmd)); diff != "" {
		t.Errorf("y on a big body (-want +got):\n%s", diff)
	}
}
