package tuitest

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/testbin"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// Evil is testbin.EvilUTF8, the one hostile text every output's tests
// use (valid UTF-8, so it fits in a JSON string), followed by a fake row:
// a screen that let its newline through would show that row.
const Evil = testbin.EvilUTF8 + "fake row"

// HugeLen is the length of the hostile transcript's huge tool name.
const HugeLen = 1 << 20

// HugeName is the hostile transcript's 1 MB tool name (HugeLen bytes of
// valid UTF-8): one line of escapes that a screen must cut as cheaply as
// a short name.
func HugeName() string {
	const prefix, unit = "huge-", "\x1b]0;pwned\x07\u202eA"
	s := prefix + strings.Repeat(unit, (HugeLen-len(prefix))/len(unit))
	return s + strings.Repeat("A", HugeLen-len(s))
}

// HostileSteps is a 2025-11-25 session in which both peers put Evil in
// every string that reaches a screen: client and server names and
// versions, tool names, an error message, a tool error's text, a
// server-initiated elicitation's message, field names, url and id, a
// notification's method and data, a request id, response bodies; one
// tool's name is HugeName (1 MB, one line), and one server line is not
// JSON and carries a raw 0x9b byte (invalid UTF-8). It has ok, error,
// tool-error and pending calls and accepted, declined and pending
// elicitations.
func HostileSteps() []Step {
	e := testbin.JSONString(Evil)
	x := func(s string) string { return testbin.JSONString(s + Evil) }
	huge := testbin.JSONString(HugeName())
	frames := []struct {
		dir capture.Dir
		raw string
	}{
		{capture.C2S, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":` + x("client") + `,"version":` + e + `}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":` + x("server") + `,"version":` + x("1.0") + `},"instructions":` + e + `}}`},
		{capture.C2S, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":` + x("tool") + `,"description":` + e + `,"inputSchema":{"type":"object","properties":{` + x("arg") + `:{"type":"string"}}}},{"name":` + huge + `,"inputSchema":{"type":"object"}}]}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":` + x("tool") + `,"arguments":{` + x("arg") + `:` + e + `}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":` + x("boom") + `,"data":` + e + `}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":` + huge + `,"arguments":{}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":3,"result":{"isError":true,"content":[{"type":"text","text":` + x("tool failed ") + `}]}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":` + x("id-") + `,"method":"tools/call","params":{"name":` + x("ask") + `,"arguments":{}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + e + `,"progress":1,"message":` + e + `}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"form","message":` + e + `,"requestedSchema":{"type":"object","properties":{` + x("field") + `:{"type":"string","title":` + e + `,"description":` + e + `}},"required":[` + x("field") + `]}}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{` + x("field") + `:` + e + `}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","elicitationId":` + e + `,"url":` + testbin.JSONString("https://evil.example/"+Evil+"?x="+Evil) + `,"message":` + e + `}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":` + x("id-") + `,"result":{"content":[{"type":"text","text":` + e + `}],"structuredContent":{` + x("key") + `:` + e + `}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","method":` + x("notifications/") + `,"params":{"data":` + e + `}}`},
		{capture.S2C, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":` + e + `,"data":` + e + `}}`},
		{capture.S2C, "not json \x9b " + Evil},
		{capture.C2S, `{"jsonrpc":"2.0","id":4,"method":` + x("evil/") + `}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":` + x("Method not found: ") + `}}`},
		{capture.C2S, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":` + x("slow") + `,"arguments":{}}}`},
		{capture.S2C, `{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"form","message":` + x("still waiting ") + `,"requestedSchema":{"type":"object","properties":{}}}}`},
	}
	steps := make([]Step, len(frames))
	for i, f := range frames {
		steps[i] = Step{Dir: f.dir, After: 10 * time.Millisecond, Raw: []byte(f.raw)}
	}
	return steps
}

// CheckTerminalSafe fails t unless screen, a View of w×h cells, is
// exactly h lines ("\n"-joined) of at most w cells each, valid UTF-8,
// with no escape sequence but SGR (colours and attributes), no other
// control byte but "\n", no DEL or C1 code point and no bidi control: it
// cannot move the cursor, clear the screen, set a title, write the
// clipboard, open a hyperlink or reorder the text around it.
func CheckTerminalSafe(t testing.TB, screen string, w, h int) {
	t.Helper()
	if !utf8.ValidString(screen) {
		t.Errorf("screen is not valid UTF-8")
	}
	lines := strings.Split(screen, "\n")
	if h == 0 {
		lines = nil
		if screen != "" {
			t.Errorf("screen of height 0 is %.80q", screen)
		}
	}
	if len(lines) != h {
		t.Errorf("screen has %d lines, want %d", len(lines), h)
	}
	bad := 0
	for i, l := range lines {
		if n := ui.Width(l); n > w {
			t.Errorf("line %d is %d cells wide, want at most %d: %.200q", i+1, n, w, l)
			bad++
		}
		if msg := unsafeText(l); msg != "" {
			t.Errorf("line %d has %s: %.200q", i+1, msg, l)
			bad++
		}
		if bad >= 10 {
			t.Errorf("giving up after %d bad lines", bad)
			return
		}
	}
}

// unsafeText says what in s (a line) could drive a terminal, or "" when
// nothing.
func unsafeText(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0x1b {
			if n = sgrLen(s[i:]); n == 0 {
				return fmt.Sprintf("an escape other than SGR (ESC [ [0-9;:]* m) at byte %d", i)
			}
		}
		if msg := unsafeRune(r, n); msg != "" {
			return fmt.Sprintf("%s at byte %d", msg, i)
		}
		i += n
	}
	return ""
}

// sgrLen is the length of the SGR sequence (ESC [ [0-9;:]* m) s starts
// with, or 0 when s starts with none.
func sgrLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c != ';' && c != ':' && (c < '0' || c > '9'):
			return 0
		}
	}
	return 0
}

// unsafeRune says what r, n bytes long, could do to a terminal, or ""
// when nothing; an escape (checked by the caller) is safe.
func unsafeRune(r rune, n int) string {
	switch {
	case r == utf8.RuneError && n == 1:
		return "an invalid byte"
	case r == 0x1b:
	case r < 0x20:
		return fmt.Sprintf("control byte %#x", r)
	case r >= 0x7f && r <= 0x9f:
		return fmt.Sprintf("DEL or C1 control %U", r)
	case isBidi(r):
		return fmt.Sprintf("bidi control %U", r)
	}
	return ""
}

// isBidi reports whether r is a bidi formatting control.
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
