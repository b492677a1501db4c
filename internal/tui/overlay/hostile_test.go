package overlay

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// hostile is text that would move the cursor, clear the screen, set the
// window title, reverse the text's direction and end a C string.
const hostile = "\x1b[2J\x1b]0;x\a\u202e\x00\u009bevil"

// q returns s as a JSON string.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileSteps is a session whose every peer-chosen string is hostile: the
// client's and server's names and capabilities, a 1 MB tool name, an
// elicitation's message, fields and url, and findings about them.
func hostileSteps() []tuitest.Step {
	huge := strings.Repeat("A\x1b[31m\u202e", 1<<20/8)
	h := q(hostile)
	raw := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},` + h + `:{` + h + `:` + h + `}}},"clientInfo":{"name":` + h + `,"version":` + h + `}}}`,
		`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},` + h + `:[` + h + `]},"serverInfo":{"name":` + h + `,"version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":` + q(huge) + `,"inputSchema":{"type":"object"}},{"name":` + h + `,"inputSchema":{"type":"object"}}]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":` + q(huge) + `,"arguments":{}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"form","message":` + q(hostile+huge) + `,"requestedSchema":{"type":"object","properties":{` + h + `:{"type":` + h + `},` + q(huge) + `:{"type":"string"}},"required":[` + h + `]}}}`,
		`{"jsonrpc":"2.0","id":7,"result":{"action":` + h + `}}`,
		`{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{"mode":"url","message":` + h + `,"url":` + q("https://"+hostile+".example/"+huge) + `,"elicitationId":` + h + `}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":` + h + `,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":` + q(hostile+huge) + `}`,
		hostile + huge,
	}
	dirs := "cscscscsssscc"
	steps := make([]tuitest.Step, len(raw))
	for i, r := range raw {
		steps[i] = tuitest.Step{Dir: capture.C2S, Raw: []byte(r)}
		if dirs[i] == 's' {
			steps[i].Dir = capture.S2C
		}
	}
	return steps
}

var (
	sgr  = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	bidi = []rune{'\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'}
)

// checkSafe fails unless view could not change the terminal's state: no
// control but newline and the SGR sequences lipgloss writes, no C1 or
// bidi control, no invalid UTF-8, and every line within w cells.
func checkSafe(t *testing.T, view string, w int) {
	t.Helper()
	rest := sgr.ReplaceAllString(view, "")
	if !utf8.ValidString(rest) {
		t.Fatalf("view is not valid UTF-8")
	}
	for i, r := range rest {
		switch {
		case r < 0x20 && r != '\n', r >= 0x7f && r <= 0x9f:
			t.Fatalf("view holds control %U at byte %d: %q", r, i, rest[max(i-20, 0):min(i+20, len(rest))])
		case strings.ContainsRune(string(bidi), r), unicode.Is(unicode.Bidi_Control, r):
			t.Fatalf("view holds bidi control %U", r)
		}
	}
	for i, l := range strings.Split(view, "\n") {
		if ui.Width(l) > w {
			t.Fatalf("line %d is %d cells wide, want at most %d", i, ui.Width(l), w)
		}
	}
}

func TestHostile(t *testing.T) {
	t.Parallel()
	d := tuitest.Data(t, tuitest.Capture(t, hostile, hostileSteps(), true))
	if d.Snap.Ledger.Len() == 0 || d.Snap.Findings.Len() == 0 || d.Snap.Catalog == nil {
		t.Fatalf("the hostile session has %d ledger rows, %d findings, catalog %v: want some of each",
			d.Snap.Ledger.Len(), d.Snap.Findings.Len(), d.Snap.Catalog != nil)
	}
	th := ui.NewTheme(true)
	for _, spec := range Specs() { // every overlay: a new one is covered once registered
		kind := spec.Kind
		for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 10}} {
			t.Run(fmt.Sprintf("%s-%dx%d", kind, size[0], size[1]), func(t *testing.T) {
				m := New(th, kind, d).SetSize(size[0], size[1])
				for range in(t, m).count() + 1 {
					checkSafe(t, m.View(), size[0])
					checkSize(t, m.View(), size[0], size[1])
					m, _ = m.Update(tuitest.Press("down"))
				}
			})
		}
	}
}
