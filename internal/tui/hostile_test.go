package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestHostileSession opens a session full of terminal escapes, bidi
// controls, NUL, C1 and a 1 MB tool name (tuitest.HostileSteps) in the
// running app, and checks every screen it can show — the stream with
// notifications and stderr lines, each overlay, the help, and the
// inspector on every call — at two sizes: each frame is exactly the
// terminal's size, and its only escapes are colours. Then it checks what
// the program wrote to the terminal: none of the payloads' own sequences.
func TestHostileSession(t *testing.T) {
	capt := tuitest.Capture(t, "evil\x1b]0;label\x07\u202e", tuitest.HostileSteps(), true)
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(path, capt, 0o600); err != nil {
		t.Fatal(err)
	}
	f := startFlow(t, Options{Path: path}, 120, 40)
	f.waitFor("the session", func(a App) bool { return a.hasSess && a.sess.loaded && a.sess.ended })
	var calls int
	f.probe(func(a App) { calls = a.sess.data.Snap.Calls.Len() })
	if calls < 4 {
		t.Fatalf("the hostile session has %d calls", calls)
	}
	f.key("n")
	f.key("s")
	check := func(what string) {
		t.Helper()
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			f.tm.Send(teaSize(size))
			f.waitFor(what+" resized", func(a App) bool { return a.w == size[0] && a.h == size[1] })
			screen := f.render()
			t.Run(what+"/"+sizeName(size), func(t *testing.T) { tuitest.CheckTerminalSafe(t, screen, size[0], size[1]) })
		}
	}
	check("stream")
	for _, k := range []string{"l", "c", "t", "f", "?"} {
		f.key(k)
		f.waitFor("overlay "+k, func(a App) bool { return a.overlayKind() != "" || a.helping() })
		check("overlay " + k)
		f.key("esc")
		f.waitFor("no overlay", func(a App) bool { return a.overlayKind() == "" && !a.helping() })
	}
	for i := range calls {
		f.tm.Send(ui.InspectMsg{Call: i})
		f.waitFor("the inspector's frames", func(a App) bool {
			return a.inspecting() && !strings.Contains(a.Render(), "loading")
		})
		check("inspector " + itoa(i))
		f.key("esc")
		f.waitFor("the stream", func(a App) bool { return !a.inspecting() })
	}
	f.quit()
	out, err := io.ReadAll(f.tm.FinalOutput(t, teatest.WithFinalTimeout(5*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	for _, payload := range []string{"\x1b]0;pwned", "\x1b]0;label", "\x1b]52;c;cHduZWQ", "\x1b]8;;http://evil", "\u202e", "\u2066", "\u009b", "\x00", "\x7f"} {
		if bytes.Contains(out, []byte(payload)) {
			t.Errorf("the program wrote %q to the terminal", payload)
		}
	}
}

func teaSize(s [2]int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: s[0], Height: s[1]} }

func sizeName(s [2]int) string { return itoa(s[0]) + "x" + itoa(s[1]) }

func itoa(n int) string { return strconv.Itoa(n) }
