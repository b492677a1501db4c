package tuitest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheckTerminalSafe checks the checker: a screen of plain text and
// SGR passes, and each way to drive a terminal fails.
func TestCheckTerminalSafe(t *testing.T) {
	t.Parallel()
	ok := "\x1b[1;38;5;245mab\x1b[m \x1b[4:3mc\x1b[m 日本\n\\x1b]0;x\\x07 ●"
	tests := []struct {
		name   string
		screen string
		w, h   int
		fail   string // "" when the screen is safe; else part of the failure
	}{
		{"safe", ok, 14, 2, ""},
		{"empty", "", 0, 0, ""},
		{"blank lines", "\n\n", 0, 3, ""},
		{"too wide", ok, 5, 2, "cells wide"},
		{"too many lines", ok, 10, 1, "2 lines, want 1"},
		{"trailing newline", ok + "\n", 10, 2, "3 lines"},
		{"height 0", "x", 1, 0, "height 0"},
		{"clear screen", "a\x1b[2Jb", 10, 1, "other than SGR"},
		{"cursor home", "\x1b[H", 10, 1, "other than SGR"},
		{"cut SGR", "a\x1b[1", 10, 1, "other than SGR"},
		{"OSC title", "\x1b]0;x\x07", 10, 1, "other than SGR"},
		{"OSC 52", "\x1b]52;c;eA==\x07", 10, 1, "other than SGR"},
		{"bare ESC", "a\x1b", 10, 1, "other than SGR"},
		{"BEL", "a\x07", 10, 1, "control byte 0x7"},
		{"NUL", "a\x00", 10, 1, "control byte 0x0"},
		{"CR", "a\rb", 10, 1, "control byte 0xd"},
		{"tab", "a\tb", 10, 1, "control byte 0x9"},
		{"DEL", "a\x7f", 10, 1, "U+007F"},
		{"C1 CSI", "a\u009b2J", 10, 1, "U+009B"},
		{"raw 0x9b", "a\x9b2J", 10, 1, "invalid byte"},
		{"RLO", "a\u202eb", 10, 1, "U+202E"},
		{"LRI", "a\u2066b", 10, 1, "U+2066"},
		{"ALM", "a\u061cb", 10, 1, "U+061C"},
		{"RLM", "a\u200fb", 10, 1, "U+200F"},
		{"PDI", "a\u2069b", 10, 1, "U+2069"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &recorder{}
			CheckTerminalSafe(r, tt.screen, tt.w, tt.h)
			got := strings.Join(r.errs, "\n")
			switch {
			case tt.fail == "" && got != "":
				t.Errorf("CheckTerminalSafe(%q) failed: %s", tt.screen, got)
			case tt.fail != "" && !strings.Contains(got, tt.fail):
				t.Errorf("CheckTerminalSafe(%q) = %q, want a failure with %q", tt.screen, got, tt.fail)
			}
		})
	}
}

// TestHostileSteps checks the hostile transcript goes through the real
// Writer and source whole: every call, the huge tool name and the evil
// strings arrive as sent, and each shown through ui.Cell is safe.
func TestHostileSteps(t *testing.T) {
	t.Parallel()
	steps := HostileSteps()
	d := Data(t, Capture(t, "hostile"+Evil, steps, false))
	s := d.Snap
	if got, want := s.Session.Server.Name, "server"+Evil; got != want {
		t.Errorf("server name %q, want %q", got, want)
	}
	if got, want := s.Session.Client.Version, Evil; got != want {
		t.Errorf("client version %q, want %q", got, want)
	}
	var shown []string
	statuses := map[string]int{}
	huge := false
	for i := range s.Calls.Len() {
		c := s.Calls.At(i)
		statuses[c.Status]++
		huge = huge || c.Target == HugeName()
		shown = append(shown, c.Method, c.Target, c.ID.String())
		if c.Error != nil {
			shown = append(shown, c.Error.Message)
		}
	}
	if !huge {
		t.Error("no call has the 1 MB tool name as its target")
	}
	for _, st := range []string{"ok", "error", "tool-error", "pending"} {
		if statuses[st] == 0 {
			t.Errorf("no %s call; statuses %v", st, statuses)
		}
	}
	actions := map[string]int{}
	for _, row := range s.Ledger.Slice() {
		actions[row.Action]++
		shown = append(shown, row.Message, row.URL, row.ElicitationID)
	}
	if actions["accept"] != 1 || actions["decline"] != 1 || actions[""] != 1 {
		t.Errorf("ledger actions %v, want one accept, one decline, one pending", actions)
	}
	for _, l := range d.Lines {
		shown = append(shown, l.Method, l.Text)
	}
	shown = append(shown, s.Session.Label, s.Session.Server.Name, s.Session.Server.Version, s.Session.Client.Name)
	if h := HugeName(); len(h) != HugeLen || !utf8.ValidString(h) || strings.Contains(h, "\n") {
		t.Errorf("HugeName is %d bytes (want %d), valid UTF-8 %v, one line %v", len(h), HugeLen, utf8.ValidString(h), !strings.Contains(h, "\n"))
	}
	for _, x := range []string{s.Session.Server.Name, s.Session.Client.Version, HugeName()} {
		if unsafeText(x) == "" {
			t.Errorf("%.40q is not hostile", x)
		}
	}
	var screen []string
	for _, x := range shown {
		screen = append(screen, ui.Pad(ui.Cell(x, 60), 60))
	}
	CheckTerminalSafe(t, strings.Join(screen, "\n"), 60, len(screen))
}
