package hub

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// manySessions is n sessions like the test list's, newest first.
func manySessions(n int) []ui.SessionInfo {
	base := sessions()
	out := make([]ui.SessionInfo, n)
	for i := range out {
		s := base[i%len(base)]
		s.Path = fmt.Sprintf("/s/%06d.jsonl", i)
		s.LastActivity = now.Add(-time.Duration(i) * time.Minute)
		out[i] = s
	}
	return out
}

// BenchmarkView draws a 120×40 hub of 10k sessions.
func BenchmarkView(b *testing.B) {
	m := New(ui.NewTheme(true)).SetNow(now).SetSize(120, 40).SetSessions(manySessions(10_000))
	m, _ = run(m, tuitest.Keys("pgdown", "pgdown"))
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkKeyPress answers a key press (Update and View) in a 120×40 hub
// of 10k sessions.
func BenchmarkKeyPress(b *testing.B) {
	m := New(ui.NewTheme(true)).SetNow(now).SetSize(120, 40).SetSessions(manySessions(10_000))
	j, k := tuitest.Press("j"), tuitest.Press("k")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		msg := j
		if i%2 == 1 {
			msg = k
		}
		m, _ = m.Update(msg)
		_ = m.View()
	}
}

// BenchmarkSetSessions takes a newer list of 10k sessions while filtered
// (the source's update, every second at most).
func BenchmarkSetSessions(b *testing.B) {
	list := manySessions(10_000)
	m, _ := run(New(ui.NewTheme(true)).SetNow(now).SetSize(120, 40).SetSessions(list), tuitest.Keys("/", "l", "o", "a", "d", "enter"))
	b.ReportAllocs()
	for b.Loop() {
		m = m.SetSessions(list)
	}
}
