package stream

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestHeadline checks the header counts calls as every view does (an
// MRTR operation once, its retries as rounds, the server's requests
// apart) with the p50/p95 of the calls, and while the capture loads says
// how far the read is instead of counts that are not final.
func TestHeadline(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ fixture, want string }{
		{"elicit-seed", " · 3 calls (3 more rounds) · p50 970.0ms p95 2.89s"},
		{"legacy-2025-11-25", " · 2 calls · 2 server requests · p50 15.0ms p95 4.58s"},
	} {
		d := tuitest.Fixture(t, tt.fixture)
		line := firstLine(New(ui.NewTheme(false)).SetSize(120, 10).SetData(d).View())
		if !strings.HasSuffix(strings.TrimRight(line, " "), tt.want) {
			t.Errorf("%s: header %q, want it to end %q", tt.fixture, line, tt.want)
		}
		d.Loading = true
		line = firstLine(New(ui.NewTheme(false)).SetSize(120, 10).SetData(d).View())
		want := " · loading… " + ui.Thousands(d.Snap.Counts.Frames) + " frames"
		if !strings.HasSuffix(strings.TrimRight(line, " "), want) || strings.Contains(line, "calls") {
			t.Errorf("%s loading: header %q, want it to end %q", tt.fixture, line, want)
		}
	}
}

func firstLine(v string) string { l, _, _ := strings.Cut(ansi.Strip(v), "\n"); return l }
