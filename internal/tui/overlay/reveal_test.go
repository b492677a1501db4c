package overlay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptrail/mcptrail/internal/capture"
	"github.com/mcptrail/mcptrail/internal/redact"
	"github.com/mcptrail/mcptrail/internal/rules"
	"github.com/mcptrail/mcptrail/internal/tui/source"
	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// openFixture writes transcript name as a capture file and opens it with
// the real source, redacting the keys, as `mcptrail open --redact-key`
// does; it returns the last Data.
func openFixture(t *testing.T, name string, keys ...string) ui.Data {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+capture.Ext)
	if err := os.WriteFile(path, tuitest.Capture(t, name, tuitest.ReadTranscript(t, tuitest.Transcript(name)), true), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := &source.Options{Rules: rules.Default()}
	if len(keys) > 0 {
		red, err := redact.New(&redact.Options{Keys: keys})
		if err != nil {
			t.Fatal(err)
		}
		opts.Redactor = red
	}
	s, err := source.Open(context.Background(), path, "", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var last ui.Data
	for d := range s.Updates() {
		last = d
	}
	return last
}

// reveal presses v on the ledger and feeds it the command's answer.
func reveal(t *testing.T, m Overlay) Overlay {
	t.Helper()
	m, cmd := m.Update(tuitest.Press("v"))
	if cmd == nil {
		t.Fatal("v gave no command")
	}
	m, _ = m.Update(cmd())
	return m
}

// TestRevealAnswer checks v shows the selected row's answer, read from
// the capture with the session's redaction applied and marked revealed,
// while the rows keep carrying no value.
func TestRevealAnswer(t *testing.T) {
	t.Parallel()
	d := openFixture(t, "elicit-seed", "email")
	m := New(ui.NewTheme(false), Ledger, d).SetSize(120, 24)
	if v := m.View(); strings.Contains(v, "FIXTURE-CANARY") || strings.Contains(v, "revealed") {
		t.Fatalf("the ledger shows an answer before v:\n%s", v)
	}
	v := ansi.Strip(reveal(t, m).View())
	if !strings.Contains(v, "revealed (local only) accept {\"username\":\"FIXTURE-CANARY-user\"") {
		t.Errorf("no revealed answer after v:\n%s", v)
	}
	if strings.Contains(v, "canary@example.com") {
		t.Errorf("the revealed answer escaped redaction:\n%s", v)
	}
	for i := range d.Snap.Ledger.Len() {
		if r := d.Snap.Ledger.At(i); strings.Contains(r.Message+strings.Join(r.Observations, ""), "CANARY") {
			t.Errorf("ledger row %d carries a value: %+v", i, r)
		}
	}
	// Another row selected: its answer is not the one shown.
	m, _ = reveal(t, m).Update(tuitest.Press("down"))
	if v := ansi.Strip(m.View()); strings.Contains(v, "FIXTURE-CANARY") {
		t.Errorf("the first row's answer shows on the second:\n%s", v)
	}
}

// TestRevealLegacy reveals a 2025-11-25 elicitation/create's answer (the
// client's ElicitResult).
func TestRevealLegacy(t *testing.T) {
	t.Parallel()
	d := openFixture(t, "legacy-2025-11-25")
	v := ansi.Strip(reveal(t, New(ui.NewTheme(false), Ledger, d).SetSize(120, 24)).View())
	if !strings.Contains(v, "revealed (local only) accept") {
		t.Errorf("no revealed answer after v:\n%s", v)
	}
}

var _ tea.Msg = revealMsg{}
