package htmlexport

import (
	"strings"
	"testing"
)

// TestReportShowsAppMode renders the apps transcript: the ledger shows the
// app-rendered form's mode, app, and the ui:// resource that renders it.
func TestReportShowsAppMode(t *testing.T) {
	t.Parallel()
	page, _ := render(t, transcriptCapture(t, "../../../testdata/transcripts/apps.transcript.jsonl", "apps"))
	for _, want := range []string{"rendered by ui://dashboards/range-picker — from: string (required), to: string (required)", ">app<"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
