package stream

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// hostile returns strings that would change a terminal's state if printed.
func hostile() []string {
	return []string{
		"\x1b[2J\x1b[H", "\x1b]0;pwned\a", "a\u202eb", "nul\x00byte", "\x9b31m", "\u2066iso\u2069",
		"bad utf8 \xff\xfe", strings.Repeat("\x1b]8;;http://x\a", 1<<16), strings.Repeat("W", 1<<20),
	}
}

// hostileSteps returns calls whose ids, names, methods and error messages
// are hostile, some answered with an error, one legacy request nested.
func hostileSteps(t *testing.T) []tuitest.Step {
	t.Helper()
	frame := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var steps []tuitest.Step
	for i, h := range hostile() {
		id := fmt.Sprintf("%d%s", i, h[:min(len(h), 64)])
		steps = append(steps,
			tuitest.Step{Dir: capture.C2S, Raw: frame(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
				"params": map[string]any{"name": h, "arguments": map[string]any{}}})},
			tuitest.Step{Dir: capture.S2C, Raw: frame(map[string]any{"jsonrpc": "2.0", "id": i, "method": h + "/x"})},
			tuitest.Step{Dir: capture.S2C, Raw: frame(map[string]any{"jsonrpc": "2.0", "id": id,
				"error": map[string]any{"code": -32000, "message": h}})})
	}
	return steps
}

// sgr matches the styling sequences lipgloss emits.
var sgr = regexp.MustCompile(`^\x1b\[[0-9;:]*m`)

// checkSafe fails when view holds anything but text, newlines and SGR
// sequences, or a line wider than w.
func checkSafe(t *testing.T, view string, w int) {
	t.Helper()
	for i := 0; i < len(view); i++ {
		switch c := view[i]; {
		case c == 0x1b:
			loc := sgr.FindStringIndex(view[i:])
			if loc == nil {
				t.Fatalf("escape that is not SGR at %d: %q", i, view[i:min(i+20, len(view))])
			}
			i += loc[1] - 1
		case c < 0x20 && c != '\n', c == 0x7f:
			t.Fatalf("control byte %#x at %d: %q", c, i, view[max(i-20, 0):min(i+20, len(view))])
		}
	}
	if !utf8.ValidString(view) {
		t.Fatal("View is not valid UTF-8")
	}
	for _, r := range view {
		if (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
			r == 0x200e || r == 0x200f || r == 0x061c {
			t.Fatalf("rune %U in the View", r)
		}
	}
	for n, l := range strings.Split(view, "\n") {
		if ui.Width(l) > w {
			t.Fatalf("line %d is %d cells wide, want at most %d", n+1, ui.Width(l), w)
		}
	}
}

func TestHostileContent(t *testing.T) {
	t.Parallel()
	d := tuitest.Data(t, tuitest.Capture(t, "evil\x1b[2J\u202e", hostileSteps(t), false))
	for i, h := range hostile() {
		d.Lines = append(d.Lines,
			ui.Line{Kind: ui.LineStderr, Seq: uint64(3*i + 1), Dir: capture.S2C, Text: h, Call: -1},
			ui.Line{Kind: ui.LineNote, Seq: uint64(3*i + 2), Note: h, Text: h, Call: -1},
			ui.Line{Kind: ui.LineNotification, Seq: uint64(3*i + 3), Method: h, Dir: capture.S2C, Call: -1})
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 10}, {300, 60}} {
		m, _ := tuitest.Send(New(ui.NewTheme(true)).SetSize(size[0], size[1]).SetData(d), "n", "s")
		checkSafe(t, m.View(), size[0])
		for _, h := range hostile() {
			e, _ := tuitest.Send(m, "/")
			e.bar = h
			checkSafe(t, e.View(), size[0])
			if size[0] != 80 || len(h) > 4096 {
				continue // applying a 1 MB filter costs the filter package, not the screen
			}
			e, _ = tuitest.Send(e, "enter")
			checkSafe(t, e.View(), size[0])
		}
		for range 40 {
			m, _ = tuitest.Send(m, "k")
			checkSafe(t, m.View(), size[0])
		}
	}
}
