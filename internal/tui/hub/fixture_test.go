package hub

import (
	"testing"
	"time"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"

	"github.com/mcptrail/mcptrail/internal/store"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// now is the fixed clock of the tests.
var now = time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)

// sessions is the hub's test list, newest first: live and ended
// sessions, errors, pending elicitations, an unlabelled one, a long and
// a wide label, an unreadable capture, old ones.
func sessions() []ui.SessionInfo {
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	return []ui.SessionInfo{
		{Path: "/s/a.jsonl", ID: "a", Label: "checkout-agent", Transport: "stdio",
			Client: store.Peer{Name: "claude-code", Version: "1.2.3"}, Server: store.Peer{Name: "payments", Version: "0.9.1"},
			Calls: 1234, Errors: 3, Elicitations: 3, Pending: 1, Findings: 2, Start: ago(time.Hour), LastActivity: ago(3 * time.Second),
			Live: true, Activity: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 8, 2}},
		{Path: "/s/b.jsonl", ID: "b", Label: "browser-research-with-a-very-long-label-that-goes-on-and-on-and-on", Transport: "http",
			Client: store.Peer{Name: "cursor", Version: "0.50"}, Server: store.Peer{Name: "fetch-mcp", Version: "2.0.0"},
			Calls: 42, Start: ago(2 * time.Hour), LastActivity: ago(12 * time.Second), Live: true,
			Activity: []int{5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
		{Path: "/s/c.jsonl", ID: "01J8ZQ4V6W7X8Y9Z", Transport: "stdio", Server: store.Peer{Name: "everything"},
			Start: ago(6 * time.Minute), LastActivity: ago(5 * time.Minute)},
		{Path: "/s/d.jsonl", ID: "d", Label: "broken", Transport: "stdio", Calls: 7,
			Err: "reading capture /s/d.jsonl: line 17: unexpected end of JSON input", LastActivity: ago(20 * time.Minute)},
		{Path: "/s/e.jsonl", ID: "e", Label: "load-test", Transport: "http",
			Client: store.Peer{Name: "go-sdk-client", Version: "v1.0.0"}, Server: store.Peer{Name: "echo", Version: "1"},
			Calls: 250_000, Errors: 120_000, Elicitations: 12, Findings: 7, LastActivity: ago(3 * time.Hour),
			Activity: []int{100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100}},
		{Path: "/s/f.jsonl", ID: "f", Label: "日本語のセッション", Transport: "stdio",
			Client: store.Peer{Name: "inspector", Version: "0.16"}, Server: store.Peer{Name: "weather", Version: "1.0"},
			Calls: 9, Elicitations: 2, Pending: 2, LastActivity: ago(50 * time.Hour), Activity: []int{1, 2, 3}},
		{Path: "/s/g.jsonl", ID: "g", Label: "last-year", Transport: "stdio", Calls: 1,
			LastActivity: time.Date(2025, 12, 24, 9, 0, 0, 0, time.UTC)},
	}
}

// model is a hub of the test sessions, w×h, at the test clock.
func model(w, h int) Model {
	return New(ui.NewTheme(true)).SetDir("~/.mcptrail").SetNow(now).SetSize(w, h).SetSessions(sessions())
}

// checkGolden compares got with testdata/name.golden, rewriting it with -update.
func checkGolden(t *testing.T, name, got string) { t.Helper(); tuitest.Golden(t, name, got) }

// checkSize fails unless view is exactly h lines of at most w cells.
func checkSize(t *testing.T, view string, w, h int) { t.Helper(); tuitest.CheckSize(t, view, w, h) }
