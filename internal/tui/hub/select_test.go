package hub

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// newest is a session that starts after the test list's.
var newest = ui.SessionInfo{Path: "/s/n.jsonl", ID: "n", Label: "new-load", Transport: "stdio", Live: true, LastActivity: now}

// TestSelectionKeptAcrossUpdates checks the selection follows its session
// through newer lists: a session arriving at the top moves neither the
// cursor off the user's row nor that row on the screen.
func TestSelectionKeptAcrossUpdates(t *testing.T) {
	t.Parallel()
	prepend := func(s ...ui.SessionInfo) []ui.SessionInfo { return append(s, sessions()...) }
	without := func(id string) []ui.SessionInfo {
		var out []ui.SessionInfo
		for _, s := range sessions() {
			if s.ID != id {
				out = append(out, s)
			}
		}
		return out
	}
	m, _ := run(model(120, 8), tuitest.Keys("j", "j")) // c, on screen line 2
	steps := []struct {
		name    string
		apply   func(Model) Model
		want    state
		wantRow int // the selection's line among the rows on screen
	}{
		{"new session at the top", func(m Model) Model { return m.SetSessions(prepend(newest)) },
			state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 8, Top: 1}, 2},
		{"as a HubMsg", func(m Model) Model {
			m, _ = m.Update(ui.HubMsg{Sessions: prepend(newest, ui.SessionInfo{Path: "/s/m.jsonl", ID: "m"})})
			return m
		}, state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 9, Top: 2}, 2},
		{"the same list", func(m Model) Model { return m.SetSessions(prepend(newest)) },
			state{Selected: "01J8ZQ4V6W7X8Y9Z", Rows: 8, Top: 1}, 2},
		{"selected session gone: its place stays", func(m Model) Model { return m.SetSessions(without("01J8ZQ4V6W7X8Y9Z")) },
			state{Selected: "e", Rows: 6, Top: 1}, 2},
		{"every session gone", func(m Model) Model { return m.SetSessions(nil) }, state{}, -1},
		{"sessions back: the first is selected", func(m Model) Model { return m.SetSessions(sessions()) },
			state{Selected: "a", Rows: 7}, 0},
		{"filtered, then a new match arrives", func(m Model) Model {
			m, _ = run(m, tuitest.Keys("/", "l", "o", "a", "d", "enter"))
			return m.SetSessions(prepend(newest))
		}, state{Selected: "e", Rows: 2, Filter: "load"}, 1},
		{"filter cleared: the row stays", func(m Model) Model { m, _ = run(m, tuitest.Keys("esc")); return m },
			state{Selected: "e", Rows: 8, Top: 4}, 1},
	}
	for _, st := range steps {
		m = st.apply(m)
		if diff := cmp.Diff(st.want, stateOf(m, nil)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", st.name, diff)
		}
		if row := m.sel - m.top; row != st.wantRow && st.wantRow >= 0 {
			t.Errorf("%s: selection on row %d of the screen, want %d", st.name, row, st.wantRow)
		}
	}
}

// TestNewestSelectedWhileLoading checks the hub opens on the newest
// session, selected and on screen, however the backlog arrives: an older
// session read first, then newer ones above it, do not push the newest
// off the first line until the user moves.
func TestNewestSelectedWhileLoading(t *testing.T) {
	t.Parallel()
	all := append([]ui.SessionInfo{newest}, sessions()...)
	m := New(ui.NewTheme(true)).SetNow(now).SetSize(120, 8)
	for _, n := range []int{1, 3, len(all)} {
		m = m.SetSessions(all[len(all)-n:])
		if got, want := stateOf(m, nil), (state{Selected: all[len(all)-n].ID, Rows: n}); got != want {
			t.Errorf("after %d sessions: got %+v, want %+v", n, got, want)
		}
	}
	m = m.SetSessions(all)
	if s, _ := m.Selected(); s.ID != "n" || m.top != 0 {
		t.Errorf("selected %q with top %d, want the newest, n, on the first line", s.ID, m.top)
	}
	m, _ = run(m, tuitest.Keys("j"))
	m = m.SetSessions(append([]ui.SessionInfo{{Path: "/s/z.jsonl", ID: "z"}}, all...))
	if s, _ := m.Selected(); s.ID != "a" {
		t.Errorf("after the user moved, selected %q, want a to stay", s.ID)
	}
}

// TestLoadingNotPending checks a session whose backlog is still being
// read shows "loading…" where its elicitations go, not a pending count
// that may be answered further on in the capture.
func TestLoadingNotPending(t *testing.T) {
	t.Parallel()
	s := sessions()[:1]
	s[0].Loading = true
	view := New(ui.NewTheme(true)).SetNow(now).SetSize(120, 8).SetSessions(s).View()
	if !strings.Contains(view, "loading…") || strings.Contains(view, "pending") {
		t.Errorf("a loading session's row:\n%s", view)
	}
}
