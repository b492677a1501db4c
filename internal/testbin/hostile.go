package testbin

import (
	"fmt"
	"strings"
)

// evilHead is the hostile text up to the raw C1 byte, and evilTail what
// follows it.
const (
	evilHead = "\x1b[2J\x1b[H" + "\x1b]0;pwned\x07" + "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\" +
		"\x1b]52;c;cHduZWQ=\x07" + "\u202e" + "\u2066" + "\u009b"
	evilTail = "\x7f" + "\x00" + "\n\t"
)

// Evil is what a hostile peer puts in a string to take over a terminal or
// break a line-oriented output: clear the screen and home the cursor
// (CSI), set the window title (OSC 0), an OSC 8 hyperlink, an OSC 52
// clipboard write, a right-to-left override and a bidi isolate, the C1
// CSI as a code point and as a raw byte (invalid UTF-8), a DEL, a NUL, a
// newline and a tab. The hostile tests of every output use it, so a
// sequence added here is tested everywhere at once.
const Evil = evilHead + "\x9b" + evilTail

// EvilUTF8 is Evil without its raw C1 byte: valid UTF-8, for a frame that
// must stay valid JSON.
const EvilUTF8 = evilHead + evilTail

// EvilLine is Evil as one line of a stdio stream, a command-line argument
// or an environment variable can carry it: without its NUL and newline.
var EvilLine = strings.NewReplacer("\x00", "", "\n", "").Replace(Evil)

// EvilName is Evil as a file or directory name can hold it: EvilLine
// without its slashes.
var EvilName = strings.ReplaceAll(EvilLine, "/", "_")

// EvilShown is part of Evil as internal/termtext shows it: proof that the
// hostile text reached an output, escaped.
const EvilShown = `\x1b]0;pwned\x07`

// JSONString is s as a JSON string literal that keeps every byte it may
// keep: controls are escaped as JSON demands (\u001b, \u0000), the rest
// (DEL, bidi controls, C1 code points, invalid UTF-8) goes on the wire
// raw, as a hostile peer sends it.
func JSONString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
