package stream

import (
	"testing"

	"github.com/mcptrail/mcptrail/internal/tui/tuitest"
	"github.com/mcptrail/mcptrail/internal/tui/ui"
)

// TestElicitModeFilter: elicit: matches a ledger row's mode as well as its
// outcome, as the HTML report's filter does (elicit:form was a syntax
// error in the TUI). The legacy fixture's call 1 carries a form question
// (nested request 2) and a url one (nested request 3).
func TestElicitModeFilter(t *testing.T) {
	t.Parallel()
	steps := legacySteps(t)
	before := tuitest.Data(t, tuitest.Capture(t, "legacy", steps[:4], false))
	after := tuitest.Data(t, tuitest.Capture(t, "legacy", steps, false))
	for _, text := range []string{"elicit:form", "elicit:url", "ELICIT:Form", "elicit:form elicit:url elicit:accept"} {
		m := New(ui.NewTheme(true)).SetSize(120, 10).SetData(after).apply(text)
		if m.barErr != "" {
			t.Fatalf("%s: %s", text, m.barErr)
		}
		if len(m.ix.rows) != 3 {
			t.Errorf("%s shows %d rows, want call 1 and its two nested requests", text, len(m.ix.rows))
		}
		if m = m.SetData(before); len(m.ix.rows) != 0 {
			t.Errorf("%s before the questions shows %d rows", text, len(m.ix.rows))
		}
	}
}
