package hub

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// hostileSessions puts tuitest.Evil, the short hostile strings of the
// brief and a 1 MB label in every string of a session the hub shows.
func hostileSessions() []ui.SessionInfo {
	var out []ui.SessionInfo
	for i, evil := range []string{tuitest.Evil, "\x1b[2J", "\x1b]0;x\a", "\u202e", "\x00", "a\nb", "\x9b\xff", tuitest.HugeName()} {
		out = append(out, ui.SessionInfo{
			Path: fmt.Sprintf("/s/%d.jsonl", i), ID: "id" + evil, Label: "label" + evil, Transport: evil,
			Client: store.Peer{Name: "client" + evil, Version: evil}, Server: store.Peer{Name: evil, Version: "1" + evil},
			Calls: 1, Errors: 1, Elicitations: 2, Pending: 1, Live: i%2 == 0, LastActivity: now,
			Activity: []int{1, 2},
		})
		if i%3 == 0 {
			out[i].Err = "reading " + evil
		}
		if i == 2 {
			out[i].Label = ""
		}
	}
	return out
}

// TestHostile checks hostile sessions are drawn escaped at every size:
// nothing in the screen could drive the terminal, and the escapes show.
func TestHostile(t *testing.T) {
	t.Parallel()
	base := New(ui.NewTheme(true)).SetNow(now).SetDir("/home/\x1b]0;x\a\u202e").SetSessions(hostileSessions())
	models := map[string]Model{
		"list":      base,
		"selected":  first(run(base, tuitest.Keys("j"))),
		"filtering": first(run(base, tuitest.Keys("/", "l"))),
		"pasted":    first(base.Update(tuitest.Press("/"))),
		"empty":     New(ui.NewTheme(true)).SetDir("/home/\x1b[2J\u202e\x00dir"),
	}
	models["pasted"], _ = models["pasted"].Update(tea.PasteMsg{Content: "\x1b]0;x\a\u202e" + strings.Repeat("x", 1000)})
	for name, m := range models {
		for _, s := range [][2]int{{120, 40}, {80, 24}, {40, 10}, {1, 1}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, s[0], s[1]), func(t *testing.T) {
				t.Parallel()
				view := m.SetSize(s[0], s[1]).View()
				tuitest.CheckTerminalSafe(t, view, s[0], s[1])
			})
		}
	}
	if view := base.SetSize(200, 20).View(); !strings.Contains(view, `label\x1b[2J`) || !strings.Contains(view, `\u202e`) {
		t.Errorf("the hostile label is not shown escaped:\n%s", view)
	}
}
